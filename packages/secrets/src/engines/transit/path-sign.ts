import { constants } from 'node:crypto';
import { definePath, digestOf, field, type PathDefinition, verifySignature } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type SignatureOptions, signWith, verifyWith } from './asymmetric.js';
import type { TransitDeps } from './deps.js';
import { isPlainEd25519, signEd25519Variant, verifyEd25519Variant } from './ed25519-variants.js';
import { derivedEd25519, derivesSigningKeys, signingKeyOf, verifyingKeyOf } from './key-objects.js';
import {
  decryptionVersion,
  encryptionVersion,
  type HeldTransitKey,
  isManaged,
  transitKeys,
  versionOf,
} from './key-store.js';
import { specOf } from './key-types.js';
import { verifyHmac } from './path-hmac.js';
import { signDigest, verifyDigest } from './prehashed.js';
import {
  decodeSignature,
  ed25519VariantOf,
  encodeSignature,
  hashOf,
  type SignData,
  signatureOptionsOf,
  signFields,
  urlAlgorithm,
} from './sign-fields.js';
import { base64Field, formatVaultText, itemInt, itemString, optionalBase64, parseVaultText, runBatch } from './wire.js';

function patterns<F extends object>(verb: string, fields: F) {
  return [
    { pattern: `${verb}/:name`, fields },
    { pattern: `${verb}/:name/:urlalgorithm`, fields: { ...fields, ...urlAlgorithm } },
  ];
}

async function entryOf(storage: Storage, name: string) {
  const entry = await transitKeys.view(storage, name);
  if (!entry) throw new InvalidRequestError('signing key not found');
  return entry;
}

function signingKind(entry: HeldTransitKey) {
  const { kind } = specOf(entry.type);
  if (kind === 'aead' || kind === 'hmac')
    throw new InvalidRequestError(`key type ${entry.type} does not support signing`);
  return kind;
}

/** What one signature or verification reads of the request or its batch item. */
interface SignItem {
  input: string;
  context?: string;
  signatureContext?: string;
}

/** Managed keys (RSA and EC in an HSM or key service) have no Ed25519 variants. */
function refuseSignatureContext(data: SignData): void {
  if (data.signature_context) throw new InvalidRequestError('signature_context is only supported for ed25519 keys');
}

const requestItemOf = (data: SignData): SignItem => ({ input: data.input ?? '', context: data.context });

/** A batch item: its own input, and its context and signature_context, else the request's. */
const itemOf = (item: Record<string, unknown>, data: SignData): SignItem => ({
  input: itemString(item, 'input'),
  context: itemString(item, 'context') || data.context,
  signatureContext: itemString(item, 'signature_context') || undefined,
});

function signHeld(entry: HeldTransitKey, data: SignData, item: SignItem, keyVersion: number) {
  const kind = signingKind(entry);
  const options = signatureOptionsOf(data);
  const variant = ed25519VariantOf(kind, data, item.signatureContext);
  const version = encryptionVersion(entry, keyVersion);
  const stored = versionOf(entry, version);
  const context = optionalBase64(item.context, 'context');
  const key = signingKeyOf(entry, stored, context);
  const input = base64Field(item.input, 'input');
  const signature = !isPlainEd25519(variant)
    ? signEd25519Variant(key, input, variant)
    : data.prehashed
      ? signDigest(kind, key, input, options)
      : signWith(kind, key, input, options);
  const answer: Record<string, unknown> = {
    signature: formatVaultText(version, encodeSignature(signature, options.marshaling)),
    key_version: version,
  };
  // A derived key's public key differs per context: the established answer names it.
  if (derivesSigningKeys(entry)) answer.publickey = derivedEd25519(stored, context).publicRaw.toString('base64');
  return answer;
}

function verifyHeld(entry: HeldTransitKey, data: SignData, item: SignItem, signature: string): boolean {
  const kind = signingKind(entry);
  const options = signatureOptionsOf(data);
  const variant = ed25519VariantOf(kind, data, item.signatureContext);
  const { version, payload } = parseVaultText(signature, 'signature');
  const stored = decryptionVersion(entry, version);
  const bytes = decodeSignature(payload, options.marshaling);
  const key = verifyingKeyOf(entry, stored, optionalBase64(item.context, 'context'));
  const input = base64Field(item.input, 'input');
  if (!isPlainEd25519(variant)) return verifyEd25519Variant(key, input, bytes, variant);
  return data.prehashed ? verifyDigest(kind, key, input, bytes, options) : verifyWith(kind, key, input, bytes, options);
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
              refuseSignatureContext(data);
              const key = await d.managedKey({ id: entry.managed_key_id });
              const hash = hashOf(data);
              const usePss = data.signature_algorithm === 'pss' && (await key.publicKey()).asymmetricKeyType === 'rsa';
              const input = base64Field(data.input ?? '', 'input');
              // Managed keys sign a digest: prehashed input is that digest already.
              const signature = await key.sign(data.prehashed ? input : digestOf(input, hash), { hash, usePss });
              return {
                data: { signature: formatVaultText(1, Buffer.from(signature).toString('base64')), key_version: 1 },
              };
            }
            if (!data.batch_input)
              return {
                data: signHeld(entry, data, requestItemOf(data), data.key_version),
              };
            return runBatch(
              data.batch_input,
              async (item) =>
                signHeld(entry, data, itemOf(item, data), itemInt(item, 'key_version') || data.key_version),
              data.partial_failure_response_code,
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
              refuseSignatureContext(data);
              const key = await d.managedKey({ id: entry.managed_key_id });
              const { payload } = parseVaultText(data.signature ?? '', 'signature');
              const publicKey = await key.publicKey();
              const input = base64Field(data.input ?? '', 'input');
              const signature = decodeSignature(payload, 'asn1');
              const usePss = data.signature_algorithm === 'pss' && publicKey.asymmetricKeyType === 'rsa';
              if (!data.prehashed)
                return {
                  data: { valid: verifySignature(publicKey, input, signature, { hash: hashOf(data), usePss }) },
                };
              const kind = publicKey.asymmetricKeyType === 'rsa' ? 'rsa' : 'ecdsa';
              const options: SignatureOptions = {
                hash: hashOf(data),
                signatureAlgorithm: usePss ? 'pss' : 'pkcs1v15',
                saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
                marshaling: 'asn1',
              };
              return { data: { valid: verifyDigest(kind, publicKey, input, signature, options) } };
            }
            const one = (item: SignItem, signature: string, hmac: string) => {
              if (signature && hmac) throw new InvalidRequestError('provide one of "signature" or "hmac", not both');
              if (!signature && !hmac) throw new InvalidRequestError('missing signature or hmac to verify');
              const algorithm = hashOf(data);
              return {
                valid: hmac ? verifyHmac(entry, item.input, hmac, algorithm) : verifyHeld(entry, data, item, signature),
              };
            };
            if (!data.batch_input)
              return {
                data: one(requestItemOf(data), data.signature ?? '', data.hmac ?? ''),
              };
            return runBatch(
              data.batch_input,
              async (item) => one(itemOf(item, data), itemString(item, 'signature'), itemString(item, 'hmac')),
              data.partial_failure_response_code,
            );
          },
        },
      },
      help: { synopsis: 'Verify a signature or an HMAC.', description: 'Answers `valid` true or false.' },
    }),
  );
}
