import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { TransitDeps } from './backend.js';
import { isManaged, type ManagedTransitKey, type SymmetricTransitKey, transitKeys } from './key-store.js';
import { generateKey, SYMMETRIC_KEY_TYPES, type SymmetricKeyType } from './symmetric.js';

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

const KEY_TYPES = [...SYMMETRIC_KEY_TYPES, 'managed_key'] as const;

/** Options of the established engine this one does not have: refused when asked for, never ignored. */
const unsupportedFields = {
  derived: field.bool({ description: 'Key derivation: not supported here (must be false).', default: false }),
  convergent_encryption: field.bool({ description: 'Not supported here (must be false).', default: false }),
  exportable: field.bool({ description: 'Key export: not supported here (must be false).', default: false }),
  allow_plaintext_backup: field.bool({ description: 'Backups: not supported here (must be false).', default: false }),
};

/** The fields that create a key: on `keys/:name`, and on `encrypt/:name` when the key does not exist yet. */
export const keyCreationFields = {
  type: field.enum({
    description: 'Key type: aes256-gcm96 (default), aes128-gcm96, chacha20-poly1305 or managed_key.',
    values: KEY_TYPES,
    default: 'aes256-gcm96' as const,
  }),
  ...unsupportedFields,
};

type KeyCreation = { type: (typeof KEY_TYPES)[number] } & { [K in keyof typeof unsupportedFields]: boolean };

/** A new symmetric key (version 1), after refusing the options this engine does not have. */
export function newSymmetricKey(d: TransitDeps, data: KeyCreation): SymmetricTransitKey {
  for (const option of Object.keys(unsupportedFields) as (keyof typeof unsupportedFields)[])
    if (data[option]) throw new InvalidRequestError(`${option} keys are not supported by this transit engine`);
  const type = data.type as SymmetricKeyType;
  return {
    type,
    versions: [{ key: generateKey(type, d.random).toString('base64'), creation_time: d.now() }],
    min_decryption_version: 1,
    deletion_allowed: false,
  };
}

async function newManagedKey(
  d: TransitDeps,
  data: { managed_key_name?: string; managed_key_id?: string; auto_rotate_period?: number },
): Promise<ManagedTransitKey> {
  if (data.auto_rotate_period) throw new InvalidRequestError('Auto rotation can not be set for managed keys');
  if (data.managed_key_name && data.managed_key_id)
    throw new InvalidRequestError('only one argument of managed_key_name or managed_key_id should be specified');
  if (!data.managed_key_name && !data.managed_key_id)
    throw new InvalidRequestError('missing argument managed_key_name or managed_key_id');
  const ref = data.managed_key_id ? { id: data.managed_key_id } : { name: data.managed_key_name ?? '' };
  const key = await d.managedKey(ref);
  return { type: 'managed_key', managed_key_id: key.id, managed_key_name: key.name, creation_time: d.now() };
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
      auto_rotate_period: field.durationSeconds({ description: 'Must be 0: keys do not rotate by themselves here.' }),
    },
    existenceCheck: async ({ storage, data }) => (await transitKeys.get(storage, data.name)) !== undefined,
    operations: {
      create: {
        summary: 'Create a key.',
        handler: async ({ storage, data }) =>
          d.locks.run(data.name, async () => {
            if (data.type !== 'managed_key' && (data.managed_key_name || data.managed_key_id))
              throw new InvalidRequestError('managed_key_name and managed_key_id need type managed_key');
            if (data.type !== 'managed_key' && data.auto_rotate_period)
              throw new InvalidRequestError('auto_rotate_period is not supported by this transit engine');
            if ((await transitKeys.get(storage, data.name)) !== undefined) return alreadyExists(data.name);
            const entry = data.type === 'managed_key' ? await newManagedKey(d, data) : newSymmetricKey(d, data);
            await transitKeys.put(storage, data.name, entry);
            return undefined;
          }),
      },
      update: {
        summary: 'The key exists: nothing changes (use keys/:name/config and rotate).',
        handler: async ({ data }) => alreadyExists(data.name),
      },
      read: {
        summary: 'Read a key: its versions (and public key for a managed key), never key material.',
        handler: async ({ storage, data }) => {
          const entry = await transitKeys.get(storage, data.name);
          if (!entry) throw new NotFoundError('');
          if (!isManaged(entry)) return { data: symmetricKeyView(data.name, entry) };
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
        'Symmetric keys (aes256-gcm96 by default) encrypt and decrypt; managed keys sign and verify in the HSM or ' +
        'key service, followed by UUID. Deleting a symmetric key needs deletion_allowed (keys/:name/config).',
    },
  });
}

function alreadyExists(name: string) {
  return { data: null, warnings: [`key "${name}" already exists; nothing changed`] };
}

/** What a read shows of a symmetric key, as established: versions with their creation times (Unix seconds). */
function symmetricKeyView(name: string, entry: SymmetricTransitKey) {
  const keys = Object.fromEntries(
    entry.versions.map((v, i) => [String(i + 1), Math.floor(Date.parse(v.creation_time) / 1000)]),
  );
  return {
    name,
    type: entry.type,
    keys,
    latest_version: entry.versions.length,
    min_decryption_version: entry.min_decryption_version,
    min_encryption_version: 0,
    min_available_version: 0,
    deletion_allowed: entry.deletion_allowed,
    derived: false,
    exportable: false,
    allow_plaintext_backup: false,
    auto_rotate_period: 0,
    imported_key: false,
    supports_encryption: true,
    supports_decryption: true,
    supports_derivation: false,
    supports_signing: false,
  };
}

/** The symmetric key `name`, or 400 as established when it is missing or held elsewhere. */
export async function symmetricKeyOf(storage: Storage, name: string): Promise<SymmetricTransitKey> {
  const entry = await transitKeys.get(storage, name);
  if (!entry) throw new InvalidRequestError('encryption key not found');
  if (isManaged(entry)) throw new InvalidRequestError(`key type ${entry.type} does not support encryption here`);
  return entry;
}

/** `keys/:name/rotate` and `keys/:name/config`: a new version; the oldest decryptable one and deletion. */
export function pathKeyUpkeep(d: TransitDeps) {
  const name = field.path({ description: 'Name of the key.' });
  return [
    definePath({
      pattern: 'keys/:name/rotate',
      fields: { name },
      operations: {
        update: {
          summary: 'Add a new version of the key; new encryptions use it, older ciphertexts still decrypt.',
          handler: async ({ storage, data }) =>
            d.locks.run(data.name, async () => {
              const entry = await symmetricKeyOf(storage, data.name);
              const key = generateKey(entry.type, d.random).toString('base64');
              entry.versions.push({ key, creation_time: d.now() });
              await transitKeys.put(storage, data.name, entry);
              return { data: symmetricKeyView(data.name, entry) };
            }),
        },
      },
      help: { synopsis: 'Rotate the key.', description: 'Managed keys do not rotate here.' },
    }),
    definePath({
      pattern: 'keys/:name/config',
      fields: {
        name,
        min_decryption_version: field.int({ description: 'Oldest version whose ciphertexts decrypt (≥ 1).' }),
        deletion_allowed: field.bool({ description: 'Whether the key may be deleted.' }),
      },
      operations: {
        update: {
          summary: 'Configure the key.',
          handler: async ({ storage, data }) =>
            d.locks.run(data.name, async () => {
              const entry = await symmetricKeyOf(storage, data.name);
              const min = data.min_decryption_version;
              if (min !== undefined && (min < 1 || min > entry.versions.length))
                throw new InvalidRequestError(
                  `min_decryption_version must be between 1 and the latest version (${entry.versions.length})`,
                );
              if (min !== undefined) entry.min_decryption_version = min;
              if (data.deletion_allowed !== undefined) entry.deletion_allowed = data.deletion_allowed;
              await transitKeys.put(storage, data.name, entry);
              return { data: symmetricKeyView(data.name, entry) };
            }),
        },
      },
      help: { synopsis: 'Configure a key.', description: 'min_decryption_version and deletion_allowed.' },
    }),
  ];
}
