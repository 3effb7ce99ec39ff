import { checkTtls, definePath, field, type PathDefinition } from '../../framework/index.js';
import { parseServiceAccountCredentials } from '../../google/credentials.js';
import { rotateOwnKey } from '../../google/service-account-keys.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { GcpEngineDeps } from './deps.js';
import { type EngineEndpoints, gcpEngineStore } from './gcp-store.js';

const ENDPOINT_KEYS = new Set<keyof EngineEndpoints>(['iam', 'iamcredentials', 'crm']);

function endpointsOf(raw: Record<string, unknown>, current: EngineEndpoints): EngineEndpoints {
  const next = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(raw)) {
    if (!ENDPOINT_KEYS.has(key as keyof EngineEndpoints))
      throw new InvalidRequestError(`custom_endpoint: unknown key "${key}" (iam, iamcredentials, crm)`);
    if (value === '' || value === null || value === undefined) next.delete(key);
    else if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/.test(value))
      throw new InvalidRequestError(`custom_endpoint.${key} must be an http(s) URL`);
    else next.set(key, value);
  }
  return Object.fromEntries(next);
}

/** `config` (the engine's account and key TTLs) and `config/rotate-root` (a new key for that account). */
export function pathConfig(d: GcpEngineDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'config',
      fields: {
        credentials: field.string({
          description: 'JSON of the service account key the engine acts as. Empty: Application Default Credentials.',
        }),
        ttl: field.durationSeconds({ description: 'Default lease of service account keys (0: the mount’s).' }),
        max_ttl: field.durationSeconds({ description: 'Maximum lease of service account keys (0: the mount’s).' }),
        custom_endpoint: field.object({
          description: 'Ward extension: `iam`, `iamcredentials`, `crm` base URLs (private endpoints, tests).',
        }),
      },
      operations: {
        update: {
          summary: 'Configure the engine.',
          handler: async ({ storage, data, supplied }) =>
            d.locks.run('config', async () => {
              const config = await gcpEngineStore.config(storage);
              if (supplied.has('credentials')) {
                delete config.credentials;
                if (data.credentials) config.credentials = parseServiceAccountCredentials(data.credentials);
              }
              if (data.ttl !== undefined) config.ttl = data.ttl;
              if (data.max_ttl !== undefined) config.max_ttl = data.max_ttl;
              checkTtls(config.ttl, config.max_ttl);
              if (data.custom_endpoint) config.endpoints = endpointsOf(data.custom_endpoint, config.endpoints);
              await gcpEngineStore.putConfig(storage, config);
              return undefined;
            }),
        },
        read: {
          summary: 'Read the configuration (never the key).',
          handler: async ({ storage }) => {
            const c = await gcpEngineStore.config(storage);
            const data: Record<string, unknown> = { ttl: c.ttl, max_ttl: c.max_ttl };
            if (c.credentials) data.service_account_email = c.credentials.client_email;
            if (Object.keys(c.endpoints).length > 0) data.custom_endpoint = c.endpoints;
            return { data };
          },
        },
      },
      help: {
        synopsis: 'Configure the GCP secrets engine.',
        description:
          'The account needs to create and delete service accounts and their keys (roles/iam.serviceAccountAdmin, ' +
          'roles/iam.serviceAccountKeyAdmin), edit IAM policies of the bound projects (roles/resourcemanager.projectIamAdmin) ' +
          'and, for impersonated accounts, roles/iam.serviceAccountTokenCreator on them.',
      },
    }),
    definePath({
      pattern: 'config/rotate-root',
      fields: {},
      operations: {
        update: {
          summary: 'Replace the engine’s key with a new one of the same account and delete the old one.',
          handler: async ({ storage }) =>
            d.locks.run('config', async () => {
              const config = await gcpEngineStore.config(storage);
              const old = config.credentials;
              if (!old) throw new InvalidRequestError('no credentials are configured to rotate');
              const next = await rotateOwnKey(
                old,
                (credentials) => d.apisOf({ ...config, credentials }),
                (credentials) => gcpEngineStore.putConfig(storage, { ...config, credentials }),
              );
              return { data: { private_key_id: next.private_key_id } };
            }),
        },
      },
      help: {
        synopsis: 'Rotate the engine’s own key.',
        description: 'The new key is stored before the old one is deleted (with the new key).',
      },
    }),
  ];
}
