import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson } from '../../logical/storage.js';

const KEY = 'config/cache';
const MIN_SIZE = 10;

/**
 * `cache-config`: the established key-cache size. Keys here are read from the barrier, which
 * caches them already; the size is kept and shown for clients that set it.
 */
export function pathCacheConfig() {
  return definePath({
    pattern: 'cache-config',
    fields: { size: field.int({ description: '0 (unlimited) or at least 10.', default: 0 }) },
    operations: {
      read: {
        summary: 'Read the cache size.',
        handler: async ({ storage }) => ({
          data: { size: (await getJson<{ size: number }>(storage, KEY))?.size ?? 0 },
        }),
      },
      update: {
        summary: 'Set the cache size.',
        handler: async ({ storage, data }) => {
          if (data.size !== 0 && data.size < MIN_SIZE)
            throw new InvalidRequestError('size must be 0 or a value greater or equal to 10');
          await putJson(storage, KEY, { size: data.size });
          return { data: { size: data.size } };
        },
      },
    },
    help: { synopsis: 'Configure the key cache.', description: 'size: 0 or at least 10.' },
  });
}
