import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';

/**
 * `storage` as seen from inside `prefix` (`''` or ending in `/`): every key and list prefix is
 * taken relative to it, and one that could reach outside it is refused. Each mount gets one,
 * so a backend can only ever touch its own `logical/<uuid>/` entries.
 */
export function createView(storage: Storage, prefix: string): Storage {
  if (prefix !== '' && !prefix.endsWith('/')) throw new InternalError(`view prefix "${prefix}" must end in '/'`);
  const full = (key: string) => prefix + checkKey(key);
  return {
    // async, so a refused key rejects the promise instead of throwing at the call.
    get: async (key) => storage.get(full(key)),
    put: async (key, value) => storage.put(full(key), value),
    delete: async (key) => storage.delete(full(key)),
    list: async (listPrefix) => storage.list(full(listPrefix)),
    transaction: async (operations) => storage.transaction(operations.map((o) => ({ ...o, key: full(o.key) }))),
    // Not async (every hot read passes here): the barrier's promise is handed on; a refused key still rejects.
    ...(storage.getDecoded ? { getDecoded: (key, decode) => decodedVia(storage, full, key, decode) } : {}),
  };
}

function decodedVia(
  storage: Storage,
  full: (key: string) => string,
  key: string,
  decode: (bytes: Uint8Array) => unknown,
): Promise<unknown> {
  try {
    return storage.getDecoded ? storage.getDecoded(full(key), decode) : Promise.resolve(undefined);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A relative key must not climb out of the view. The physical store does not resolve `..`,
 * but a later backend (a file store, a snapshot restore) might, and a leading `/` has no
 * meaning under a prefix; both are refused rather than guessed at.
 */
function checkKey(key: string): string {
  if (key.startsWith('/')) throw new InvalidRequestError(`invalid key "${key}": must not start with '/'`);
  // The cheap test first: every request's storage keys pass through here.
  if (key.includes('..') && key.split('/').includes('..')) {
    throw new InvalidRequestError('relative paths not supported');
  }
  return key;
}
