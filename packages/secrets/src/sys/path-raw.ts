/** `sys/raw/*`: the decrypted storage beneath the barrier, key by key (`raw_storage_endpoint = true`). @module */
import type { RawStorage } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';

/**
 * Keys no raw request may touch, as established: the keyring (its entry is sealed by the root
 * key, not by the barrier), the root key beneath it, and the cluster's identity (`core/cluster`,
 * the established `core/cluster/local/info`), whose change would make the server another cluster.
 */
export const RAW_PROTECTED_PREFIXES: readonly string[] = ['core/keyring', 'core/root-key', 'core/cluster'];

/** Sudo paths of `sys/`: `sys/raw` is root-only wherever it is enabled. */
export const RAW_ROOT_PATHS = ['raw', 'raw/*'];

type Verb = 'read' | 'write' | 'delete' | 'list';

function requireUnprotected(path: string, verb: Verb): string {
  if (RAW_PROTECTED_PREFIXES.some((p) => path.startsWith(p))) throw new InvalidRequestError(`cannot ${verb} '${path}'`);
  return path;
}

function encodingOf(raw: string | undefined): 'base64' | 'text' {
  if (raw === undefined || raw === '') return 'text';
  if (raw === 'base64') return 'base64';
  throw new InvalidRequestError(`encoding must be "base64" or empty, got ${JSON.stringify(raw)}`);
}

function decodeValue(value: string, encoding: 'base64' | 'text'): Uint8Array {
  if (encoding === 'text') return Buffer.from(value, 'utf8');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    throw new InvalidRequestError('value is not valid base64');
  }
  return Buffer.from(value, 'base64');
}

/** `sys/raw/*path`: GET, PUT, DELETE and LIST on the storage as the barrier decrypts it. */
export function pathRaw(storage: RawStorage): PathDefinition[] {
  return [
    definePath({
      pattern: 'raw/*path?',
      fields: {
        path: field.path({ description: 'The storage key (not the logical path of a mount).' }),
        value: field.string({ description: 'The value to write.' }),
        encoding: field.string({ description: '`base64`: `value` is base64, read values are returned as base64.' }),
        compressed: field.bool({
          description: 'Ward never compresses storage entries: only `false` is accepted on write.',
        }),
        compression_type: field.string({ description: 'Not supported (Ward never compresses storage entries).' }),
      },
      operations: {
        read: {
          summary: 'Read the value of the key at the given path.',
          handler: async ({ data }) => {
            const encoding = encodingOf(data.encoding);
            const value = await storage.get(requireUnprotected(data.path, 'read'));
            if (value === undefined) throw new NotFoundError('');
            const bytes = Buffer.from(value);
            return { data: { value: encoding === 'base64' ? bytes.toString('base64') : bytes.toString('utf8') } };
          },
        },
        update: {
          summary: 'Update the value of the key at the given path.',
          handler: async ({ data }) => {
            const path = requireUnprotected(data.path, 'write');
            if (path === '') throw new InvalidRequestError('missing path');
            if (data.compressed === true || data.compression_type) {
              throw new InvalidRequestError('Ward does not compress storage entries');
            }
            await storage.put(path, decodeValue(data.value ?? '', encodingOf(data.encoding)));
            return undefined;
          },
        },
        delete: {
          summary: 'Delete the key with the given path.',
          handler: async ({ data }) => {
            const path = requireUnprotected(data.path, 'delete');
            if (path === '') throw new InvalidRequestError('missing path');
            await storage.delete(path);
            return undefined;
          },
        },
        list: {
          summary: 'Return the keys below the given path prefix.',
          handler: async ({ data }) => {
            const prefix = data.path === '' || data.path.endsWith('/') ? data.path : `${data.path}/`;
            const keys = await storage.list(requireUnprotected(prefix, 'list'));
            if (keys.length === 0) throw new NotFoundError('');
            return { data: { keys } };
          },
        },
      },
      help: {
        synopsis: 'Write, read, and delete data directly in the storage backend.',
        description:
          'The storage beneath the barrier, decrypted: keys are storage keys, not logical paths. ' +
          'Writing here bypasses every cache and check of the server; the keyring, root key and ' +
          'cluster identity are refused. Enabled by `raw_storage_endpoint = true`; sudo only.',
      },
    }),
  ];
}
