import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { TransitDeps } from './backend.js';
import { transitKeys } from './key-store.js';

/** `keys/` (LIST): the names of the mount's keys. */
export function pathListKeys() {
  return definePath({
    pattern: 'keys/',
    fields: {},
    operations: {
      list: {
        summary: 'List the names of the keys.',
        handler: async ({ storage }) => ({ data: { keys: await transitKeys.list(storage) } }),
      },
    },
    help: { synopsis: 'List the keys.', description: 'Names only, sorted; 404 when the mount has none.' },
  });
}

/** `keys/:name`: create a key backed by a managed key, read it (with its public key), delete it. */
export function pathKeys(d: TransitDeps) {
  return definePath({
    pattern: 'keys/:name',
    fields: {
      name: field.path({ description: 'Name of the key.' }),
      type: field.string({ description: 'Key type; this engine supports `managed_key` only.', default: 'managed_key' }),
      managed_key_name: field.string({ description: 'Name of the managed key (or give managed_key_id).' }),
      managed_key_id: field.string({ description: 'UUID of the managed key (or give managed_key_name).' }),
      auto_rotate_period: field.durationSeconds({ description: 'Must be 0: managed keys do not rotate here.' }),
    },
    existenceCheck: async ({ storage, data }) => (await transitKeys.get(storage, data.name)) !== undefined,
    operations: {
      create: {
        summary: 'Create a key that signs with a managed key.',
        handler: async ({ storage, data }) => {
          if (data.type !== 'managed_key')
            throw new InvalidRequestError(
              `invalid value for "type": only managed_key is supported, got "${data.type}"`,
            );
          if (data.auto_rotate_period) throw new InvalidRequestError('Auto rotation can not be set for managed keys');
          if (data.managed_key_name && data.managed_key_id)
            throw new InvalidRequestError(
              'only one argument of managed_key_name or managed_key_id should be specified',
            );
          if (!data.managed_key_name && !data.managed_key_id)
            throw new InvalidRequestError('missing argument managed_key_name or managed_key_id');
          const ref = data.managed_key_id ? { id: data.managed_key_id } : { name: data.managed_key_name ?? '' };
          const key = await d.managedKey(ref);
          await transitKeys.put(storage, data.name, {
            type: 'managed_key',
            managed_key_id: key.id,
            managed_key_name: key.name,
            creation_time: new Date(d.clock.now()).toISOString(),
          });
          return undefined;
        },
      },
      update: {
        summary: 'Keys backed by a managed key cannot be changed.',
        handler: async ({ data }) => {
          throw new InvalidRequestError(`key "${data.name}" exists; delete it to point it at another managed key`);
        },
      },
      read: {
        summary: 'Read a key and its public key.',
        handler: async ({ storage, data }) => {
          const entry = await transitKeys.get(storage, data.name);
          if (!entry) throw new NotFoundError('');
          const key = await d.managedKey({ id: entry.managed_key_id });
          const publicKey = (await key.publicKey()).export({ format: 'pem', type: 'spki' }).toString();
          return {
            data: {
              name: data.name,
              type: entry.type,
              managed_key_name: entry.managed_key_name,
              managed_key_id: entry.managed_key_id,
              latest_version: 1,
              min_decryption_version: 1,
              min_encryption_version: 0,
              supports_signing: true,
              supports_encryption: false,
              supports_decryption: false,
              supports_derivation: false,
              exportable: false,
              deletion_allowed: true,
              keys: { '1': { public_key: publicKey, creation_time: entry.creation_time, name: key.name } },
            },
          };
        },
      },
      delete: {
        summary: 'Delete the key (the managed key and the HSM key stay).',
        handler: async ({ storage, data }) => {
          await transitKeys.delete(storage, data.name);
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Manage transit keys backed by managed keys.',
      description: 'The key follows the managed key by UUID; the mount must be allowed to use it.',
    },
  });
}
