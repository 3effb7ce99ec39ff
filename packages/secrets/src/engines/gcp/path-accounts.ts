import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { bindAndKey, unbindAndDropKey } from './account-setup.js';
import { bindingsOutput, parseBindings } from './bindings.js';
import { queueLeftover } from './cleanup.js';
import { gcpCloud } from './cloud.js';
import type { GcpEngineDeps } from './deps.js';
import { gcpEngineStore, type StaticAccount } from './gcp-store.js';

const listPath = (pattern: string, what: string, list: (s: Storage) => Promise<string[]>) =>
  definePath({
    pattern,
    fields: {},
    operations: {
      list: { summary: `List the ${what}.`, handler: async ({ storage }) => ({ data: { keys: await list(storage) } }) },
    },
    help: { synopsis: `List the ${what}.`, description: '404 when there are none.' },
  });

/** The account must exist in IAM (its project comes from it). */
async function lookUp(d: GcpEngineDeps, storage: Storage, email: string) {
  const account = await gcpCloud.getAccount(await d.apis(storage), email);
  if (!account?.email) throw new InvalidRequestError(`unable to find service account "${email}"`);
  return { email: account.email, project: account.projectId ?? '' };
}

/**
 * `static-account/:name` (an existing account: optional bindings, tokens or keys; deleting
 * removes the bindings and the token key, never the account) and `impersonated-account/:name`
 * (tokens for an existing account minted through IAM credentials as the engine's account).
 */
export function pathAccounts(d: GcpEngineDeps): PathDefinition[] {
  const locked = <T>(key: string, fn: () => Promise<T>) => d.locks.run(key, fn);
  const emailField = field.string({ description: 'Email of the existing service account.' });
  const scopesField = field.commaStrings({ description: 'OAuth scopes of the access tokens.' });
  return [
    listPath('static-accounts/', 'static accounts', (s) => gcpEngineStore.staticAccounts.list(s)),
    listPath('static-account/', 'static accounts', (s) => gcpEngineStore.staticAccounts.list(s)),
    definePath({
      pattern: 'static-account/:name',
      fields: {
        name: field.path({ description: 'Static account name.' }),
        service_account_email: emailField,
        secret_type: field.string({ description: '`access_token` (default) or `service_account_key`.' }),
        bindings: field.string({ description: 'Optional bindings granted to the account (HCL or JSON).' }),
        token_scopes: scopesField,
      },
      operations: {
        update: {
          summary: 'Create or update the static account.',
          handler: async ({ storage, data }) =>
            locked(`static-account/${data.name}`, async () => {
              const old = await gcpEngineStore.staticAccounts.get(storage, data.name);
              const email = data.service_account_email || old?.service_account_email;
              if (!email) throw new InvalidRequestError('service_account_email is required');
              if (old && email !== old.service_account_email)
                throw new InvalidRequestError('cannot change service_account_email of an existing static account');
              const secretType = data.secret_type || old?.secret_type || 'access_token';
              if (secretType !== 'access_token' && secretType !== 'service_account_key')
                throw new InvalidRequestError(`invalid "secret_type" value: "${secretType}"`);
              if (old && secretType !== old.secret_type)
                throw new InvalidRequestError('cannot change secret_type after static account creation');
              const scopes = data.token_scopes ?? old?.token_scopes ?? [];
              if (secretType === 'access_token' && scopes.length === 0)
                throw new InvalidRequestError('token_scopes must be provided for an access_token static account');
              const bindings = data.bindings ? parseBindings(data.bindings) : (old?.bindings ?? []);
              if (old && JSON.stringify(bindings) === JSON.stringify(old.bindings)) {
                await gcpEngineStore.staticAccounts.put(storage, data.name, { ...old, token_scopes: scopes });
                return undefined;
              }
              const account = await lookUp(d, storage, email);
              const apis = await d.apis(storage);
              const tokenKey = await bindAndKey(apis, account.email, bindings, secretType);
              const next: StaticAccount = {
                secret_type: secretType,
                service_account_email: account.email,
                service_account_project: account.project,
                bindings,
                token_scopes: scopes,
                ...(tokenKey ? { token_key: tokenKey } : {}),
              };
              await gcpEngineStore.staticAccounts.put(storage, data.name, next);
              if (!old) return undefined;
              try {
                await unbindAndDropKey(apis, old.service_account_email, old.bindings, old.token_key);
                return undefined;
              } catch (err) {
                const error = (err as Error).message;
                const { service_account_email, bindings: oldBindings, token_key } = old;
                await queueLeftover(storage, d.random, {
                  service_account_email,
                  bindings: oldBindings,
                  ...(token_key ? { token_key } : {}),
                  delete_account: false,
                  error,
                });
                return { warnings: [`the old bindings were not removed (${error}); they are retried every minute`] };
              }
            }),
        },
        read: {
          summary: 'Read the static account.',
          handler: async ({ storage, data }) => {
            const a = await gcpEngineStore.staticAccounts.get(storage, data.name);
            if (!a) throw new NotFoundError('');
            return {
              data: {
                service_account_email: a.service_account_email,
                service_account_project: a.service_account_project,
                secret_type: a.secret_type,
                bindings: bindingsOutput(a.bindings),
                ...(a.secret_type === 'access_token' ? { token_scopes: a.token_scopes } : {}),
              },
            };
          },
        },
        delete: {
          summary: 'Delete the static account (its bindings and token key; not the account).',
          handler: async ({ storage, data }) =>
            locked(`static-account/${data.name}`, async () => {
              const a = await gcpEngineStore.staticAccounts.get(storage, data.name);
              if (!a) return undefined;
              await unbindAndDropKey(await d.apis(storage), a.service_account_email, a.bindings, a.token_key);
              await gcpEngineStore.staticAccounts.delete(storage, data.name);
              return undefined;
            }),
        },
      },
      help: { synopsis: 'Manage a static account.', description: 'The account itself is never created or deleted.' },
    }),
    definePath({
      pattern: 'static-account/:name/rotate-key',
      fields: { name: field.path({ description: 'Static account name.' }) },
      operations: {
        update: {
          summary: 'Replace the key an access_token static account mints tokens with.',
          handler: async ({ storage, data }) =>
            locked(`static-account/${data.name}`, async () => {
              const a = await gcpEngineStore.staticAccounts.get(storage, data.name);
              if (!a) throw new InvalidRequestError(`static account '${data.name}' not found`);
              if (a.secret_type !== 'access_token')
                throw new InvalidRequestError('cannot rotate key for non-access-token static account');
              const apis = await d.apis(storage);
              const { name, json } = await gcpCloud.createKey(apis, a.service_account_email);
              await gcpEngineStore.staticAccounts.put(storage, data.name, { ...a, token_key: { name, json } });
              if (a.token_key) await gcpCloud.deleteKey(apis, a.token_key.name);
              return undefined;
            }),
        },
      },
      help: { synopsis: 'Rotate the static account’s token key.', description: 'The old key is deleted.' },
    }),
    listPath('impersonated-accounts/', 'impersonated accounts', (s) => gcpEngineStore.impersonated.list(s)),
    listPath('impersonated-account/', 'impersonated accounts', (s) => gcpEngineStore.impersonated.list(s)),
    definePath({
      pattern: 'impersonated-account/:name',
      fields: {
        name: field.path({ description: 'Impersonated account name.' }),
        service_account_email: emailField,
        token_scopes: scopesField,
        ttl: field.durationSeconds({ description: 'Lifetime of minted tokens (default 1h, at most 12h).' }),
      },
      operations: {
        update: {
          summary: 'Create or update the impersonated account.',
          handler: async ({ storage, data }) =>
            locked(`impersonated-account/${data.name}`, async () => {
              const old = await gcpEngineStore.impersonated.get(storage, data.name);
              const email = data.service_account_email || old?.service_account_email;
              if (!email) throw new InvalidRequestError('service_account_email is required');
              if (old && email !== old.service_account_email)
                throw new InvalidRequestError(
                  'cannot change service_account_email of an existing impersonated account',
                );
              const scopes = data.token_scopes ?? old?.token_scopes ?? [];
              if (scopes.length === 0) throw new InvalidRequestError('token_scopes must be provided');
              const ttl = data.ttl ?? old?.ttl ?? 0;
              if (ttl < 0 || ttl > 12 * 3600) throw new InvalidRequestError('ttl must be between 0 and 12h');
              const project = old?.service_account_project ?? (await lookUp(d, storage, email)).project;
              await gcpEngineStore.impersonated.put(storage, data.name, {
                service_account_email: email,
                service_account_project: project,
                token_scopes: scopes,
                ttl,
              });
              return undefined;
            }),
        },
        read: {
          summary: 'Read the impersonated account.',
          handler: async ({ storage, data }) => {
            const a = await gcpEngineStore.impersonated.get(storage, data.name);
            if (!a) throw new NotFoundError('');
            return { data: { ...a } };
          },
        },
        delete: {
          summary: 'Delete the impersonated account (nothing changes in Google Cloud).',
          handler: async ({ storage, data }) => {
            await gcpEngineStore.impersonated.delete(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage an impersonated account.',
        description: 'The engine’s account needs roles/iam.serviceAccountTokenCreator on it.',
      },
    }),
  ];
}
