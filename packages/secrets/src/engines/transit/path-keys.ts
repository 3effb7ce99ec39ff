import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { TransitDeps } from './deps.js';
import { keyCreationFields, newHeldKey, newManagedKey } from './key-creation.js';
import { isManaged, type ManagedTransitKey, type TransitKeyEntry, transitKeys } from './key-store.js';
import { heldKeyView } from './key-view.js';
import { optionalBase64 } from './wire.js';

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

async function managedKeyView(d: TransitDeps, name: string, entry: ManagedTransitKey) {
  const key = await d.managedKey({ id: entry.managed_key_id });
  const publicKey = (await key.publicKey()).export({ format: 'pem', type: 'spki' }).toString();
  return {
    name,
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
  };
}

/** A key's read: a managed key's public key, or the versions of a key held here. */
export async function keyView(
  d: TransitDeps,
  name: string,
  entry: TransitKeyEntry,
  context?: Buffer,
): Promise<LogicalResponse> {
  return { data: isManaged(entry) ? await managedKeyView(d, name, entry) : heldKeyView(name, entry, context) };
}

/** `keys/:name`: create a key (held here, or backed by a managed key), read it, delete it. */
export function pathKeys(d: TransitDeps) {
  return definePath({
    pattern: 'keys/:name',
    fields: {
      name: field.path({ description: 'Name of the key.' }),
      ...keyCreationFields,
      managed_key_name: field.string({ description: 'type managed_key: name of the managed key (or managed_key_id).' }),
      managed_key_id: field.string({ description: 'type managed_key: UUID of the managed key (or managed_key_name).' }),
      context: field.string({ description: 'Read: base64 context (derived keys).' }),
    },
    existenceCheck: async ({ storage, data }) => (await transitKeys.get(storage, data.name)) !== undefined,
    operations: {
      create: {
        summary: 'Create a key.',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            if (data.type !== 'managed_key' && (data.managed_key_name || data.managed_key_id))
              throw new InvalidRequestError('managed_key_name and managed_key_id need type managed_key');
            const existing = await transitKeys.get(storage, data.name);
            if (existing) return alreadyExists(d, data.name, existing);
            const entry = data.type === 'managed_key' ? await newManagedKey(d, data) : newHeldKey(d, data);
            await transitKeys.put(storage, data.name, entry);
            return keyView(d, data.name, entry);
          }),
      },
      update: {
        summary: 'The key exists: nothing changes (use keys/:name/config and rotate).',
        handler: async ({ storage, data }) => {
          const existing = await transitKeys.get(storage, data.name);
          if (!existing) throw new NotFoundError('');
          return alreadyExists(d, data.name, existing);
        },
      },
      read: {
        summary: 'Read a key: its versions and public keys, never key material.',
        handler: async ({ storage, data }) => {
          const entry = await transitKeys.get(storage, data.name);
          if (!entry) throw new NotFoundError('');
          return keyView(d, data.name, entry, optionalBase64(data.context, 'context'));
        },
      },
      delete: {
        summary: 'Delete the key (refused until deletion_allowed; a managed key itself stays in the HSM).',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            const entry = await transitKeys.get(storage, data.name);
            if (entry && !isManaged(entry) && !entry.deletion_allowed)
              throw new InvalidRequestError('deletion is not allowed for this key');
            await transitKeys.delete(storage, data.name);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: 'Manage transit keys.',
      description:
        'Keys the engine holds (aes256-gcm96 by default; AEADs encrypt, ed25519/ecdsa/rsa sign, rsa also ' +
        'encrypts, hmac only MACs) or managed keys that sign in the HSM or key service, followed by UUID. ' +
        'Deleting a key needs deletion_allowed (keys/:name/config).',
    },
  });
}

async function alreadyExists(d: TransitDeps, name: string, entry: TransitKeyEntry): Promise<LogicalResponse> {
  const view = await keyView(d, name, entry);
  return { ...view, warnings: [`key ${name} already existed`] };
}
