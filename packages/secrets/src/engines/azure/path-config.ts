import type { Clock } from '@ward/base';
import { definePath, field, type HandlerContext, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type AzureEngineConfig, azureStore, DEFAULT_ROOT_PASSWORD_TTL } from './azure-store.js';
import { clientsFor } from './clients.js';
import { type AzureAccess, canonicalEnvironment } from './clouds.js';

const fields = {
  subscription_id: field.string({ description: 'The subscription role assignments are made in.' }),
  tenant_id: field.string({ description: 'The Entra ID tenant.' }),
  client_id: field.string({ description: 'The engine’s service principal (its application’s client id).' }),
  client_secret: field.string({ description: 'Its secret; never shown (empty: the managed identity).' }),
  environment: field.string({ description: 'Cloud: AzurePublicCloud (default), AzureUSGovernmentCloud, …' }),
  root_password_ttl: field.durationSeconds({ description: 'Lifetime of the secret rotate-root creates (182d).' }),
};

/** `config` and `rotate-root`. */
export function pathConfig(access: AzureAccess, clock: Clock): PathDefinition[] {
  const write = async ({ storage, data, supplied }: HandlerContext<typeof fields>) => {
    const current = await azureStore.config(storage);
    const pick = (name: 'subscription_id' | 'tenant_id' | 'client_id' | 'client_secret' | 'environment') =>
      supplied.has(name) ? (data[name] ?? '') : (current?.[name] ?? '');
    const ttl = supplied.has('root_password_ttl') ? (data.root_password_ttl ?? 0) : current?.root_password_ttl;
    if (ttl !== undefined && ttl < 0) throw new InvalidRequestError('root_password_ttl cannot be negative');
    const config: AzureEngineConfig = {
      subscription_id: pick('subscription_id'),
      tenant_id: pick('tenant_id'),
      client_id: pick('client_id'),
      client_secret: pick('client_secret'),
      environment: canonicalEnvironment(access, pick('environment')),
      root_password_ttl: ttl || DEFAULT_ROOT_PASSWORD_TTL,
      root_password_expiration_date: current?.root_password_expiration_date ?? '',
    };
    await azureStore.putConfig(storage, config);
    return undefined;
  };
  return [
    definePath({
      pattern: 'config',
      fields,
      existenceCheck: async ({ storage }) => (await azureStore.config(storage)) !== undefined,
      operations: {
        create: { summary: 'Configure the engine.', handler: write },
        update: { summary: 'Configure the engine.', handler: write },
        read: {
          summary: 'Read the configuration (without the secret); all empty when none is written.',
          handler: async ({ storage }) => {
            const c = await azureStore.config(storage);
            const data: Record<string, unknown> = {
              subscription_id: c?.subscription_id ?? '',
              tenant_id: c?.tenant_id ?? '',
              client_id: c?.client_id ?? '',
              environment: c?.environment ?? '',
              root_password_ttl: c?.root_password_ttl ?? 0,
            };
            if (c?.root_password_expiration_date) data.root_password_expiration_date = c.root_password_expiration_date;
            return { data };
          },
        },
        delete: {
          summary: 'Delete the configuration.',
          handler: async ({ storage }) => {
            await azureStore.deleteConfig(storage);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Configure the Azure engine.',
        description:
          'The service principal needs Microsoft Graph Application.ReadWrite.All (and GroupMember.ReadWrite.All ' +
          'for azure_groups) and, for azure_roles, the right to assign roles (User Access Administrator or Owner).',
      },
    }),
    definePath({
      pattern: 'rotate-root',
      fields: {},
      operations: {
        update: {
          summary: 'Replace the configured client secret with one only this server knows.',
          handler: async ({ storage }) => {
            const { config, graph } = await clientsFor(access, storage);
            if (!config.client_id || !config.client_secret)
              throw new InvalidRequestError('rotate-root needs client_id and client_secret in the config');
            const app = await graph.applicationByAppId(config.client_id);
            const expires = new Date(clock.now() + config.root_password_ttl * 1000);
            const created = await graph.addPassword(app.id, 'ward-root', expires);
            await azureStore.putConfig(storage, {
              ...config,
              client_secret: created.secretText,
              root_password_expiration_date: expires.toISOString(),
            });
            // Every other password of the application goes, so the secret given in the config (and
            // any earlier rotation's) stops working: after this only the server knows a secret.
            const rotated = await clientsFor(access, storage);
            for (const keyId of app.passwordKeyIds)
              if (keyId !== created.keyId) await rotated.graph.removePassword(app.id, keyId);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Rotate the engine’s own client secret.',
        description:
          'Adds a password to the application of client_id (valid root_password_ttl), keeps it, then removes the ' +
          'application’s other passwords.',
      },
    }),
  ];
}
