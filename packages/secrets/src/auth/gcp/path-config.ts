import { definePath, field } from '../../framework/index.js';
import { parseServiceAccountCredentials } from '../../google/credentials.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { DEFAULT_API_ENDPOINT, type GcpConfig, gcpStore } from './gcp-store.js';

/** `custom_endpoint`'s keys and where each is kept. */
const ENDPOINT_KEYS = new Map<string, 'api_endpoint' | 'iam_endpoint' | 'crm_endpoint' | 'compute_endpoint'>([
  ['api', 'api_endpoint'],
  ['iam', 'iam_endpoint'],
  ['crm', 'crm_endpoint'],
  ['compute', 'compute_endpoint'],
]);

function withEndpoints(config: GcpConfig, endpoints: Record<string, unknown>): GcpConfig {
  const next = { ...config };
  for (const [key, value] of Object.entries(endpoints)) {
    const slot = ENDPOINT_KEYS.get(key);
    if (!slot) throw new InvalidRequestError(`custom_endpoint: unknown key "${key}" (api, iam, crm, compute)`);
    if (value === undefined || value === null || value === '') {
      if (slot === 'api_endpoint') next.api_endpoint = DEFAULT_API_ENDPOINT;
      else delete next[slot];
      continue;
    }
    if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/.test(value))
      throw new InvalidRequestError(`custom_endpoint.${key} must be an http(s) URL`);
    next[slot] = value;
  }
  return next;
}

function readData(config: GcpConfig): Record<string, unknown> {
  const endpoints = new Map<string, string>();
  for (const [key, slot] of ENDPOINT_KEYS) {
    const value = config[slot];
    if (value) endpoints.set(key, value);
  }
  const c = config.credentials;
  const data = new Map<string, unknown>();
  if (c?.client_email) data.set('client_email', c.client_email);
  if (c?.client_id) data.set('client_id', c.client_id);
  if (c?.private_key_id) data.set('private_key_id', c.private_key_id);
  if (c?.project_id) data.set('project_id', c.project_id);
  data.set('custom_endpoint', Object.fromEntries(endpoints));
  return Object.fromEntries(data);
}

/**
 * `config`: the service account the method calls Google's APIs as (`gce` logins look instances
 * and accounts up) and where those APIs are. Writable and readable; the established method has
 * no delete (405), so a config is changed, not removed.
 */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields: {
      credentials: field.string({
        description:
          'JSON of a service account key. Empty: Application Default Credentials. Never read back (only its email and key id).',
        sensitive: true,
      }),
      custom_endpoint: field.object({
        description: '`api` (default https://www.googleapis.com), `iam`, `crm`, `compute`: base URLs of Google’s APIs.',
      }),
      google_certs_endpoint: field.string({
        description:
          'Deprecated and ignored, as on the established method: Google’s keys are read under `custom_endpoint.api`.',
      }),
    },
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data, supplied }) => {
          let config = await gcpStore.config(storage);
          if (supplied.has('credentials')) {
            const { credentials: _dropped, ...rest } = config;
            config = data.credentials
              ? { ...rest, credentials: parseServiceAccountCredentials(data.credentials) }
              : rest;
          }
          if (data.custom_endpoint) config = withEndpoints(config, data.custom_endpoint);
          await gcpStore.putConfig(storage, config);
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration (never the private key).',
        handler: async ({ storage }) => ({ data: readData(await gcpStore.config(storage)) }),
      },
    },
    help: {
      synopsis: 'Configure the GCP auth method.',
      description:
        'iam logins need no credentials (the keys they check are public); gce logins look the instance up in ' +
        'Compute Engine and its service account in IAM as this account (compute.instances.get, ' +
        'compute.instanceGroups.list/listInstances, iam.serviceAccounts.get; resourcemanager.projects.get for ' +
        'group aliases).',
    },
  });
}
