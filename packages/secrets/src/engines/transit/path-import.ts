import {
  constants,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  privateDecrypt,
} from 'node:crypto';
import { promisify } from 'node:util';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TransitDeps } from './deps.js';
import { checkAutoRotatePeriod, heldKeyOf, KEY_TYPES } from './key-creation.js';
import { type HeldTransitKey, transitKeys } from './key-store.js';
import type { KeyVersion } from './key-types.js';
import { type HeldKeyType, specOf, versionFromMaterial, versionFromPublicKey } from './key-types.js';
import { heldKeyView } from './key-view.js';
import { base64Field } from './wire.js';

const WRAPPING_KEY = 'config/wrapping-key';
const WRAPPING_KEY_BITS = 4096;
/** RFC 5649's alternative initial value, as AES-KWP uses it. */
const KWP_IV = Buffer.from('A65959A6', 'hex');
const HASHES = new Map([
  ['SHA1', 'sha1'],
  ['SHA224', 'sha224'],
  ['SHA256', 'sha256'],
  ['SHA384', 'sha384'],
  ['SHA512', 'sha512'],
]);

/** The mount's RSA-4096 wrapping key (PKCS#8 PEM), made on first use. */
async function wrappingKey(d: TransitDeps, storage: Storage): Promise<string> {
  return d.locks.run(WRAPPING_KEY, async () => {
    const stored = await getJson<{ private_key: string }>(storage, WRAPPING_KEY);
    if (stored) return stored.private_key;
    const pair = await promisify(generateKeyPair)('rsa', { modulusLength: WRAPPING_KEY_BITS });
    const private_key = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await putJson(storage, WRAPPING_KEY, { private_key });
    return private_key;
  });
}

/**
 * The key material inside an import `ciphertext`, as established: RSA-OAEP (with `hash_function`)
 * of an ephemeral AES-256 key, then that key's AES-KWP wrap of the material.
 */
async function unwrap(d: TransitDeps, storage: Storage, ciphertext: string, hashFunction: string): Promise<Buffer> {
  const hash = HASHES.get(hashFunction.toUpperCase());
  if (!hash) throw new InvalidRequestError(`unsupported hash function ${hashFunction}`);
  const bytes = base64Field(ciphertext, 'ciphertext');
  const rsaBytes = WRAPPING_KEY_BITS / 8;
  if (bytes.length <= rsaBytes) throw new InvalidRequestError('invalid ciphertext: too short to hold a wrapped key');
  let ephemeral: Buffer;
  try {
    const key = createPrivateKey(await wrappingKey(d, storage));
    ephemeral = privateDecrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash },
      bytes.subarray(0, rsaBytes),
    );
  } catch {
    throw new InvalidRequestError('failed to decrypt the ephemeral key with the wrapping key');
  }
  try {
    const decipher = createDecipheriv('id-aes256-wrap-pad', ephemeral, KWP_IV);
    return Buffer.concat([decipher.update(bytes.subarray(rsaBytes)), decipher.final()]);
  } catch {
    throw new InvalidRequestError('failed to unwrap the key material with the ephemeral key');
  }
}

interface ImportData {
  ciphertext?: string;
  public_key?: string;
  hash_function: string;
}

/** The version an import brings: the unwrapped private or secret material, or a public key alone. */
async function importedVersion(d: TransitDeps, storage: Storage, type: HeldKeyType, data: ImportData) {
  if (data.ciphertext && data.public_key)
    throw new InvalidRequestError('only one of ciphertext or public_key can be provided');
  if (data.public_key) {
    return { version: versionFromPublicKey(type, data.public_key, d.random, d.now()), bytes: 0 };
  }
  if (!data.ciphertext) throw new InvalidRequestError('either ciphertext or public_key must be provided');
  const material = await unwrap(d, storage, data.ciphertext, data.hash_function);
  return { version: versionFromMaterial(type, material, d.random, d.now()), bytes: material.length };
}

const importFields = {
  name: field.path({ description: 'Name of the key.' }),
  ciphertext: field.string({
    description: 'Base64 of RSA-OAEP(ephemeral AES key) ‖ AES-KWP(key material) (or public_key).',
  }),
  public_key: field.string({
    description: 'Asymmetric types: a PEM PKIX public key to import instead (the key then only verifies).',
  }),
  hash_function: field.string({
    description: 'OAEP hash: SHA256 (default), SHA1, SHA224, SHA384, SHA512.',
    default: 'SHA256',
  }),
};

/** `wrapping_key`, `keys/:name/import` and `keys/:name/import_version`: bring your own key (BYOK). */
export function pathImport(d: TransitDeps): PathDefinition[] {
  return [
    definePath({
      pattern: 'wrapping_key',
      fields: {},
      operations: {
        read: {
          summary: 'Read the public key to wrap imported keys with.',
          handler: async ({ storage }) => ({
            data: {
              public_key: createPublicKey(await wrappingKey(d, storage))
                .export({ format: 'pem', type: 'spki' })
                .toString(),
            },
          }),
        },
      },
      help: { synopsis: 'The BYOK wrapping key.', description: 'RSA-4096, made on first use.' },
    }),
    definePath({
      pattern: 'keys/:name/import',
      fields: {
        ...importFields,
        type: field.enum({
          description: 'Key type (default aes256-gcm96).',
          values: KEY_TYPES,
          default: 'aes256-gcm96' as const,
        }),
        allow_rotation: field.bool({ description: 'Allow rotate on the imported key.', default: false }),
        derived: field.bool({ description: 'AEAD and ed25519 types: derive keys from a context.', default: false }),
        exportable: field.bool({ description: 'Allow export.', default: false }),
        allow_plaintext_backup: field.bool({ description: 'Allow backup.', default: false }),
        auto_rotate_period: field.durationSeconds({ description: 'Needs allow_rotation; 0 or ≥ 1h.' }),
      },
      operations: {
        update: {
          summary: 'Import a key.',
          handler: async ({ storage, data }) =>
            d.locks.run(data.name, async () => {
              if (data.type === 'managed_key') throw new InvalidRequestError('managed keys cannot be imported');
              if (await transitKeys.get(storage, data.name))
                throw new InvalidRequestError(
                  'the import path cannot be used with an existing key; use import-version to rotate an existing imported key',
                );
              const type = data.type as HeldKeyType;
              // As on creation: AEAD keys derive an encryption key per context, ed25519 keys a signing key
              // (from the imported seed and public key); a public key alone has no seed to derive from.
              const { kind } = specOf(type);
              if (data.derived && kind !== 'aead' && kind !== 'ed25519')
                throw new InvalidRequestError(`key derivation not supported for keys of type ${type}`);
              if (data.derived && data.public_key)
                throw new InvalidRequestError('a derived key cannot be imported from a public key alone');
              const imported = await importedVersion(d, storage, type, data);
              const entry: HeldTransitKey = {
                type,
                versions: { '1': imported.version },
                latest_version: 1,
                min_decryption_version: 1,
                min_encryption_version: 0,
                min_available_version: 0,
                deletion_allowed: false,
                exportable: data.exportable,
                allow_plaintext_backup: data.allow_plaintext_backup,
                derived: data.derived,
                convergent_encryption: false,
                auto_rotate_period: checkAutoRotatePeriod(data.auto_rotate_period),
                imported_key: true,
                allow_imported_key_rotation: data.allow_rotation,
              };
              if (specOf(type).kind === 'hmac') entry.key_size = imported.bytes;
              await transitKeys.put(storage, data.name, entry);
              return { data: heldKeyView(data.name, entry) };
            }),
        },
      },
      help: { synopsis: 'Import a key (BYOK).', description: 'Wrap it with wrapping_key first.' },
    }),
    definePath({
      pattern: 'keys/:name/import_version',
      fields: importFields,
      operations: {
        update: {
          summary: 'Import a new version of an imported key.',
          handler: async ({ storage, data }) =>
            d.locks.run(data.name, async () => {
              const entry = await heldKeyOf(storage, data.name, 'key not found');
              if (!entry.imported_key)
                throw new InvalidRequestError('import_version can only be used on imported keys');
              const imported: { version: KeyVersion } = await importedVersion(d, storage, entry.type, data);
              entry.latest_version += 1;
              entry.versions[String(entry.latest_version)] = imported.version;
              await transitKeys.put(storage, data.name, entry);
              return { data: heldKeyView(data.name, entry) };
            }),
        },
      },
      help: { synopsis: 'Import a key version.', description: 'The new version becomes the latest.' },
    }),
  ];
}
