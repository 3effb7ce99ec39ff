import type { SystemView } from '../../framework/index.js';
import { definePath, field, parseDurationSeconds } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { getJson, putJson } from '../../logical/storage.js';

/** KV v1: whatever map is written at a path is stored and read back as is. */
export function pathPassthrough(system: SystemView) {
  return definePath({
    pattern: '*path?',
    fields: { path: field.path({ description: 'Location of the secret.' }) },
    existenceCheck: async ({ storage, data }) => (await storage.get(data.path)) !== undefined,
    operations: {
      read: {
        summary: 'Read a secret.',
        handler: async ({ storage, data }) => {
          const secret = await getJson<Record<string, unknown>>(storage, data.path);
          if (!secret) throw new NotFoundError('');
          const leaseDurationSeconds = storedLeaseSeconds(secret) ?? system.defaultLeaseTtlSeconds();
          return { data: secret, lease: { leaseId: '', leaseDurationSeconds, renewable: false } };
        },
      },
      create: {
        summary: 'Store a secret, replacing what was there.',
        handler: async ({ storage, req, data }) => {
          // The raw body is the secret: a key named `path` is the caller's data, not the URL capture.
          const secret = req.data;
          if (Object.keys(secret).length === 0) throw new InvalidRequestError('missing data fields');
          if (secret.ttl !== undefined) parseDurationSeconds(secret.ttl, 'ttl');
          await putJson(storage, data.path, secret);
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a secret.',
        handler: async ({ storage, data }) => {
          await storage.delete(data.path);
          return undefined;
        },
      },
      list: {
        summary: 'List secrets and folders below a path.',
        handler: async ({ storage, data }) => {
          const keys = await storage.list(data.path);
          return { data: { keys } };
        },
      },
    },
    help: {
      synopsis: 'Pass-through secret storage.',
      description: 'Stores any map of keys to values. Values are encrypted at rest; no versions are kept.',
    },
  });
}

/**
 * The refresh interval a secret asks for in its `ttl` (or legacy `lease`) key. A value
 * that is not a duration is ignored, as established servers do, so the secret stays readable.
 */
function storedLeaseSeconds(secret: Record<string, unknown>): number | undefined {
  const raw = 'ttl' in secret ? secret.ttl : secret.lease;
  if (raw === undefined) return undefined;
  try {
    return parseDurationSeconds(raw, 'ttl');
  } catch {
    return undefined;
  }
}
