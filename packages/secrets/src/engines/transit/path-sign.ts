import { definePath, digestOf, field, type PathDefinition, verifySignature } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { signWith, verifyWith } from './asymmetric.js';
import type { TransitDeps } from './backend.js';
import {
  decryptionVersion,
  encryptionVersion,
  type HeldTransitKey,
  isManaged,
  transitKeys,
  versionOf,
} from './key-store.js';
import { privateKeyOf, publicKeyOf, specOf } from './key-types.js';
import { verifyHmac } from './path-hmac.js';
import {
  decodeSignature,
  encodeSignature,
  hashOf,
  type SignData,
  signatureOptionsOf,
  signFields,
  urlAlgorithm,
} from './sign-fields.js';
import { base64Field, formatVaultText, itemInt, itemString, parseVaultText, runBatch } from './wire.js';

function patterns<F extends object>(verb: string, fields: F) {
  return [
    { pattern: `${verb}/:name`, fields },
    { pattern: `${verb}/:name/:urlalgorithm`, fields: { ...fields, ...urlAlgorithm } },
  ];
}

async function entryOf(storage: Storage, name: string) {
  const entry = await transitKeys.get(storage, name);
  if (!entry) throw new InvalidRequestError('signing key not found');
  return entry;
}

function signingKind(entry: HeldTransitKey) {
  const { kind } = specOf(entry.type);
  if (kind === 'aead' || kind === 'hmac')
    throw new InvalidRequestError(`key type ${entry.type} does not support signing`);
  return kind;
}

function signHeld(entry: HeldTransitKey, data: SignData, input: string, keyVersion: number) {
  const kind = signingKind(entry);
  const options = signatureOptionsOf(data);
  const version = encryptionVersion(entry, keyVersion);
  const signature = signWith(kind, privateKeyOf(versionOf(entry, version)), base64Field(input, 'input'), options);
  return { signature: formatVaultText(version, encodeSignature(signature, options.marshaling)), key_version: version };
}

function verifyHeld(entry: HeldTransitKey, data: SignData, input: string, signature: string): boolean {
  const kind = signingKind(entry);
  const options = signatureOptionsOf(data);
  const { version, payload } = parseVaultText(signature, 'signature');
  const stored = decryptionVersion(entry, version);
  const bytes = decodeSignature(payload, options.marshaling);
  return verifyWith(kind, publicKeyOf(stored), base64Field(input, 'input'), bytes, options);
}

/** `sign/:name` and `sign/:name/:urlalgorithm`: sign with a key held here, or inside the HSM or key service. */
export function pathSign(d: TransitDeps): PathDefinition[] {
  return patterns('sign', signFields).map(({ pattern, fields }) =>
    definePath({
      pattern,
      fields,
      operations: {
        update: {
          summary: 'Sign data with the key.',
          handler: async ({ storage, data }) => {
            const entry = await entryOf(storage, data.name);
            if (isManaged(entry)) {
              const key = await d.managedKey({ id: entry.managed_key_id });
              const hash = hashOf(data);
              const usePss = data.signature_algorithm === 'pss' && (await key.publicKey()).asymmetricKeyType === 'rsa';
              const signature = await key.sign(digestOf(base64Field(data.input ?? '', 'input'), hash), {
                hash,
                usePss,
              });
              return {
                data: { signature: formatVaultText(1, Buffer.from(signature).toString('base64')), key_version: 1 },
              };
            }
            if (!data.batch_input) return { data: signHeld(entry, data, data.input ?? '', data.key_version) };
            return runBatch(data.batch_input, async (item) =>
              signHeld(entry, data, itemString(item, 'input'), itemInt(item, 'key_version') || data.key_version),
            );
          },
        },
      },
      help: {
        synopsis: 'Sign data.',
        description: 'RSA keys sign with PSS unless signature_algorithm is pkcs1v15; answers `signature` vault:v<n>:….',
      },
    }),
  );
}

/** `verify/:name` and `verify/:name/:urlalgorithm`: check a signature, or an HMAC made by `hmac/:name`. */
export function pathVerify(d: TransitDeps): PathDefinition[] {
  const fields = {
    ...signFields,
    signature: field.string({ description: 'vault:v<n>:… from sign.' }),
    hmac: field.string({ description: 'vault:v<n>:… from hmac (instead of signature).' }),
  };
  return patterns('verify', fields).map(({ pattern, fields }) =>
    definePath({
      pattern,
      fields,
      operations: {
        update: {
          summary: 'Verify a signature or an HMAC.',
          handler: async ({ storage, data }) => {
            const entry = await entryOf(storage, data.name);
            if (isManaged(entry)) {
              const key = await d.managedKey({ id: entry.managed_key_id });
              const { payload } = parseVaultText(data.signature ?? '', 'signature');
              const publicKey = await key.publicKey();
              const valid = verifySignature(
                publicKey,
                base64Field(data.input ?? '', 'input'),
                decodeSignature(payload, 'asn1'),
                {
                  hash: hashOf(data),
                  usePss: data.signature_algorithm === 'pss' && publicKey.asymmetricKeyType === 'rsa',
                },
              );
              return { data: { valid } };
            }
            const one = (input: string, signature: string, hmac: string) => {
              if (signature && hmac) throw new InvalidRequestError('provide one of "signature" or "hmac", not both');
              if (!signature && !hmac) throw new InvalidRequestError('missing signature or hmac to verify');
              const algorithm = hashOf(data);
              return {
                valid: hmac ? verifyHmac(entry, input, hmac, algorithm) : verifyHeld(entry, data, input, signature),
              };
            };
            if (!data.batch_input) return { data: one(data.input ?? '', data.signature ?? '', data.hmac ?? '') };
            return runBatch(data.batch_input, async (item) =>
              one(itemString(item, 'input'), itemString(item, 'signature'), itemString(item, 'hmac')),
            );
          },
        },
      },
      help: { synopsis: 'Verify a signature or an HMAC.', description: 'Answers `valid` true or false.' },
    }),
  );
}
