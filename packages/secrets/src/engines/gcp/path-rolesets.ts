import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { bindAndKey, rolesetAccountId } from './account-setup.js';
import { bindingsOutput, parseBindings } from './bindings.js';
import { queueLeftover, removeLeftover } from './cleanup.js';
import { gcpCloud } from './cloud.js';
import type { GcpEngineDeps } from './deps.js';
import { gcpEngineStore, type Roleset, type SecretType } from './gcp-store.js';

const SECRET_TYPES = ['access_token', 'service_account_key'] as const;

function listPath(pattern: string): PathDefinition {
  return definePath({
    pattern,
    fields: {},
    operations: {
      list: {
        summary: 'List the rolesets.',
        handler: async ({ storage }) => ({ data: { keys: await gcpEngineStore.rolesets.list(storage) } }),
      },
    },
    help: { synopsis: 'List the rolesets.', description: '404 when there are none.' },
  });
}

/** A new account for the roleset with its bindings (and token key); the old one's resources are then removed. */
async function replaceAccount(
  d: GcpEngineDeps,
  storage: Storage,
  name: string,
  next: Omit<Roleset, 'service_account_email'>,
  old?: Roleset,
) {
  const apis = await d.apis(storage);
  const email = await gcpCloud.createAccount(
    apis,
    next.project,
    rolesetAccountId(name, d.clock.now(), d.random),
    `Ward roleset ${name}`,
  );
  let tokenKey: Roleset['token_key'];
  try {
    tokenKey = await bindAndKey(apis, email, next.bindings, next.secret_type);
  } catch (err) {
    await gcpCloud.deleteAccount(apis, email).catch((cause: Error) =>
      queueLeftover(storage, d.random, {
        service_account_email: email,
        bindings: [],
        delete_account: true,
        error: cause.message,
      }),
    );
    throw err;
  }
  const roleset: Roleset = { ...next, service_account_email: email, ...(tokenKey ? { token_key: tokenKey } : {}) };
  await gcpEngineStore.rolesets.put(storage, name, roleset);
  if (!old) return undefined;
  try {
    await removeLeftover(d, storage, { ...old, delete_account: true });
    return undefined;
  } catch (err) {
    const error = (err as Error).message;
    await queueLeftover(storage, d.random, { ...leftoverOf(old), delete_account: true, error });
    return {
      warnings: [`the old account ${old.service_account_email} was not removed (${error}); it is retried every minute`],
    };
  }
}

const leftoverOf = (r: Roleset) => ({
  service_account_email: r.service_account_email,
  bindings: r.bindings,
  ...(r.token_key ? { token_key: r.token_key } : {}),
});

async function removeAccount(d: GcpEngineDeps, storage: Storage, roleset: Roleset): Promise<void> {
  await removeLeftover(d, storage, { ...leftoverOf(roleset), delete_account: true });
}

/**
 * `roleset/:name`: a service account Ward creates in `project`, granted `bindings`, handing
 * out access tokens or keys. Changing the bindings (or `rotate`) makes a new account and
 * removes the old one with its bindings; `rotate-key` replaces an access_token roleset's key.
 */
export function pathRolesets(d: GcpEngineDeps): PathDefinition[] {
  const locked = <T>(name: string, fn: () => Promise<T>) => d.locks.run(`roleset/${name}`, fn);
  const existing = async (storage: Storage, name: string) => {
    const roleset = await gcpEngineStore.rolesets.get(storage, name);
    if (!roleset) throw new InvalidRequestError(`roleset '${name}' not found`);
    return roleset;
  };
  return [
    listPath('rolesets/'),
    listPath('roleset/'),
    definePath({
      pattern: 'roleset/:name',
      fields: {
        name: field.path({ description: 'Roleset name.' }),
        secret_type: field.string({ description: '`access_token` (default) or `service_account_key`.' }),
        project: field.string({ description: 'Project the service account is created in.' }),
        bindings: field.string({
          description: 'HCL or JSON (raw or base64) of resource "<name>" { roles = [...] } blocks.',
        }),
        token_scopes: field.commaStrings({ description: 'OAuth scopes of access tokens (access_token rolesets).' }),
      },
      existenceCheck: async ({ storage, data }) =>
        (await gcpEngineStore.rolesets.get(storage, data.name)) !== undefined,
      operations: {
        create: { summary: 'Create the roleset.', handler: (call) => write(call) },
        update: { summary: 'Update the roleset.', handler: (call) => write(call) },
        read: {
          summary: 'Read the roleset.',
          handler: async ({ storage, data }) => {
            const r = await gcpEngineStore.rolesets.get(storage, data.name);
            if (!r) throw new NotFoundError('');
            return {
              data: {
                secret_type: r.secret_type,
                project: r.project,
                bindings: bindingsOutput(r.bindings),
                service_account_email: r.service_account_email,
                ...(r.secret_type === 'access_token' ? { token_scopes: r.token_scopes } : {}),
              },
            };
          },
        },
        delete: {
          summary: 'Delete the roleset, its service account and its bindings.',
          handler: async ({ storage, data }) =>
            locked(data.name, async () => {
              const roleset = await gcpEngineStore.rolesets.get(storage, data.name);
              if (!roleset) return undefined;
              await removeAccount(d, storage, roleset);
              await gcpEngineStore.rolesets.delete(storage, data.name);
              return undefined;
            }),
        },
      },
      help: {
        synopsis: 'Manage a roleset.',
        description: 'Deleting removes the bindings and deletes the account; keys issued from it stop working.',
      },
    }),
    definePath({
      pattern: 'roleset/:name/rotate',
      fields: { name: field.path({ description: 'Roleset name.' }) },
      operations: {
        update: {
          summary: 'Replace the roleset’s service account with a new one.',
          handler: async ({ storage, data }) =>
            locked(data.name, async () => {
              const old = await existing(storage, data.name);
              const { service_account_email: _e, token_key: _k, ...rest } = old;
              return replaceAccount(d, storage, data.name, rest, old);
            }),
        },
      },
      help: { synopsis: 'Rotate the roleset’s account.', description: 'Keys of the old account stop working.' },
    }),
    definePath({
      pattern: 'roleset/:name/rotate-key',
      fields: { name: field.path({ description: 'Roleset name.' }) },
      operations: {
        update: {
          summary: 'Replace the key an access_token roleset mints tokens with.',
          handler: async ({ storage, data }) =>
            locked(data.name, async () => {
              const roleset = await existing(storage, data.name);
              if (roleset.secret_type !== 'access_token')
                throw new InvalidRequestError('cannot rotate key for non-access-token role set');
              const apis = await d.apis(storage);
              const { name, json } = await gcpCloud.createKey(apis, roleset.service_account_email);
              await gcpEngineStore.rolesets.put(storage, data.name, { ...roleset, token_key: { name, json } });
              if (roleset.token_key) await gcpCloud.deleteKey(apis, roleset.token_key.name);
              return undefined;
            }),
        },
      },
      help: {
        synopsis: 'Rotate the roleset’s token key.',
        description: 'Tokens already minted stay valid until they expire.',
      },
    }),
  ];

  async function write({ storage, data }: { storage: Storage; data: Record<string, unknown> }) {
    const name = data.name as string;
    return locked(name, async () => {
      const old = await gcpEngineStore.rolesets.get(storage, name);
      const secretType = (data.secret_type as string | undefined) || old?.secret_type || 'access_token';
      if (!(SECRET_TYPES as readonly string[]).includes(secretType))
        throw new InvalidRequestError(`invalid "secret_type" value: "${secretType}"`);
      if (old && secretType !== old.secret_type)
        throw new InvalidRequestError('cannot change secret_type after roleset creation');
      const project = (data.project as string | undefined) ?? old?.project;
      if (old && project !== old.project)
        throw new InvalidRequestError(
          `cannot change project for existing role set (old: ${old.project}, new: ${project})`,
        );
      if (!project) throw new InvalidRequestError('project argument is required for new role set');
      const scopes = (data.token_scopes as string[] | undefined) ?? old?.token_scopes ?? [];
      if (secretType === 'access_token' && scopes.length === 0)
        throw new InvalidRequestError('token_scopes must be provided for creating access token role set');
      const rawBindings = data.bindings as string | undefined;
      if (!old && !rawBindings) throw new InvalidRequestError('bindings are required for new role set');
      const bindings = rawBindings ? parseBindings(rawBindings) : (old?.bindings ?? []);
      const next = { secret_type: secretType as SecretType, project, bindings, token_scopes: scopes };
      if (old && JSON.stringify(bindings) === JSON.stringify(old.bindings)) {
        await gcpEngineStore.rolesets.put(storage, name, { ...old, token_scopes: scopes });
        return undefined;
      }
      return replaceAccount(d, storage, name, next, old);
    });
  }
}
