import type { CorsSettings } from '../core/cors-config.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';

/** `sys/config/cors`: read, set and disable the server's CORS setting (sudo). */
export function pathConfigCors(cors: CorsSettings): PathDefinition {
  return definePath({
    pattern: 'config/cors',
    fields: {
      allowed_origins: field.commaStrings({
        description: 'Origins allowed to make cross-origin requests: a list, a comma-separated string, or `*`.',
      }),
      allowed_headers: field.commaStrings({ description: 'Headers to allow besides the standard ones.' }),
    },
    operations: {
      read: {
        summary: 'Read the CORS setting.',
        handler: async () => {
          const { enabled, allowed_origins, allowed_headers } = cors.current;
          return { data: enabled ? { enabled, allowed_origins, allowed_headers } : { enabled }, dataAtTopLevel: true };
        },
      },
      update: {
        summary: 'Enable CORS for the given origins.',
        handler: async ({ data }) => {
          await cors.enable(data.allowed_origins ?? [], data.allowed_headers ?? []);
          return undefined;
        },
      },
      delete: {
        summary: 'Disable CORS.',
        handler: async () => {
          await cors.disable();
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Configure cross-origin requests.',
      description:
        'When enabled, a request with an `Origin` header from an origin not listed is refused (403), and ' +
        'preflight `OPTIONS` requests are answered.',
    },
  });
}
