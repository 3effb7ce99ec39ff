import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { TransitDeps } from './backend.js';
import { type SymmetricTransitKey, transitKeys } from './key-store.js';
import { keyCreationFields, newSymmetricKey, symmetricKeyOf } from './path-keys.js';
import { open, seal } from './symmetric.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** `vault:v<version>:<base64>`, the established ciphertext form. */
const CIPHERTEXT = /^vault:v([1-9][0-9]{0,8}):([A-Za-z0-9+/]*={0,2})$/;

function plaintextOf(text: string): Buffer {
  if (!BASE64.test(text)) throw new InvalidRequestError('failed to base64-decode plaintext');
  return Buffer.from(text, 'base64');
}

function encryptWith(d: TransitDeps, entry: SymmetricTransitKey, plaintext: Buffer, keyVersion: number) {
  const latest = entry.versions.length;
  const version = keyVersion === 0 ? latest : keyVersion;
  if (version < entry.min_decryption_version || version > latest)
    throw new InvalidRequestError(`invalid key version: ${keyVersion}`);
  const key = Buffer.from(entry.versions[version - 1]?.key ?? '', 'base64');
  const payload = seal(entry.type, key, plaintext, d.random).toString('base64');
  return { data: { ciphertext: `vault:v${version}:${payload}`, key_version: version } };
}

/** `encrypt/:name`: seal base64 plaintext with the key's latest version (or `key_version`); creates the key if missing. */
export function pathEncrypt(d: TransitDeps) {
  const fields = {
    name: field.path({ description: 'Name of the key.' }),
    plaintext: field.string({ description: 'Base64 of the data to encrypt.', required: true }),
    key_version: field.int({ description: 'Version to encrypt with; 0 (default) is the latest.', default: 0 }),
    ...keyCreationFields,
  };
  return definePath({
    pattern: 'encrypt/:name',
    fields,
    existenceCheck: async ({ storage, data }) => (await transitKeys.get(storage, data.name)) !== undefined,
    operations: {
      create: {
        summary: 'Create the key (type, default aes256-gcm96), then encrypt with it, as established.',
        handler: async ({ storage, data }) => {
          const plaintext = plaintextOf(data.plaintext);
          if (data.type === 'managed_key') throw new InvalidRequestError('encryption key not found');
          const entry = await d.locks.run(data.name, async () => {
            const existing = await transitKeys.get(storage, data.name);
            if (existing) return symmetricKeyOf(storage, data.name);
            const created = newSymmetricKey(d, data);
            await transitKeys.put(storage, data.name, created);
            return created;
          });
          return encryptWith(d, entry, plaintext, data.key_version);
        },
      },
      update: {
        summary: 'Encrypt with the key.',
        handler: async ({ storage, data }) =>
          encryptWith(d, await symmetricKeyOf(storage, data.name), plaintextOf(data.plaintext), data.key_version),
      },
    },
    help: {
      synopsis: 'Encrypt data.',
      description: 'Answers `ciphertext` as vault:v<version>:<base64 of nonce, ciphertext and tag> and `key_version`.',
    },
  });
}

/** `decrypt/:name`: open a ciphertext of any version from min_decryption_version on; answers base64 plaintext. */
export function pathDecrypt() {
  return definePath({
    pattern: 'decrypt/:name',
    fields: {
      name: field.path({ description: 'Name of the key.' }),
      ciphertext: field.string({ description: 'vault:v<version>:<base64> from encrypt.', required: true }),
    },
    operations: {
      update: {
        summary: 'Decrypt data.',
        handler: async ({ storage, data }) => {
          const entry = await symmetricKeyOf(storage, data.name);
          const match = CIPHERTEXT.exec(data.ciphertext);
          if (!match) throw new InvalidRequestError('invalid ciphertext: expected vault:v<version>:<base64>');
          const version = Number(match[1]);
          if (version < entry.min_decryption_version)
            throw new InvalidRequestError('ciphertext or signature version is disallowed by policy (too old)');
          const stored = entry.versions[version - 1];
          if (!stored) throw new InvalidRequestError('invalid ciphertext: key version is not available');
          const plaintext = open(entry.type, Buffer.from(stored.key, 'base64'), Buffer.from(match[2] ?? '', 'base64'));
          return { data: { plaintext: plaintext.toString('base64') } };
        },
      },
    },
    help: { synopsis: 'Decrypt data.', description: 'Answers `plaintext`, base64 as it was given to encrypt.' },
  });
}
