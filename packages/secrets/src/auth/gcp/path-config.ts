import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { DEFAULT_API_ENDPOINT, gcpStore } from './gcp-store.js';

function apiEndpointOf(endpoints: Record<string, unknown> | undefined, current: string): string {
  if (!endpoints) return current;
  for (const key of Object.keys(endpoints))
    if (key !== 'api') throw new InvalidRequestError(`custom_endpoint: only "api" is used here, not "${key}"`);
  const api = endpoints.api;
  if (api === undefined || api === '') return DEFAULT_API_ENDPOINT;
  if (typeof api !== 'string' || !/^https?:\/\/[^\s]+$/.test(api))
    throw new InvalidRequestError('custom_endpoint.api must be an http(s) URL');
  return api;
}

/** `config`: where Google's API is (the method needs no credentials of its own: the keys it reads are public). */
export function pathConfig() {
  return definePath({
    pattern: 'config',
    fields: {
      custom_endpoint: field.object({
        description: '`api`: base URL of Google’s API (default https://www.googleapis.com).',
      }),
    },
    operations: {
      update: {
        summary: 'Configure the method.',
        handler: async ({ storage, data }) => {
          const current = await gcpStore.config(storage);
          await gcpStore.putConfig(storage, {
            api_endpoint: apiEndpointOf(data.custom_endpoint, current.api_endpoint),
          });
          return undefined;
        },
      },
      read: {
        summary: 'Read the configuration.',
        handler: async ({ storage }) => ({
          data: { custom_endpoint: { api: (await gcpStore.config(storage)).api_endpoint } },
        }),
      },
      delete: {
        summary: 'Back to the defaults.',
        handler: async ({ storage }) => {
          await gcpStore.deleteConfig(storage);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Configure the GCP auth method.',
      description: 'Only the API endpoint; no credentials are needed.',
    },
  });
}
