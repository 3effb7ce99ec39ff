import { field, HASH_ALGORITHMS, type HashAlgorithm, hashAlgorithmOf } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { parseSaltLength, type SignatureOptions } from './asymmetric.js';
import type { Ed25519Variant } from './ed25519-variants.js';
import type { KeyKind } from './key-types.js';
import { optionalBase64, partialFailureField } from './wire.js';

/** Fields both sign and verify take. */
export const signFields = {
  name: field.path({ description: 'Name of the key.' }),
  input: field.string({ description: 'Base64 of the data (or batch_input).' }),
  key_version: field.int({ description: 'Version to sign with; 0 (default) is the latest.', default: 0 }),
  hash_algorithm: field.string({ description: `One of ${HASH_ALGORITHMS.join(', ')} (default sha2-256).` }),
  algorithm: field.string({ description: 'Deprecated spelling of hash_algorithm.' }),
  context: field.string({ description: 'Base64 derivation context (derived keys).' }),
  prehashed: field.bool({
    description:
      'The input is already the digest named by hash_algorithm (ECDSA and RSA keys; ed25519: the SHA-512 digest, signed as Ed25519ph).',
    default: false,
  }),
  signature_context: field.string({
    description: 'ed25519 keys: base64 context of an Ed25519ctx signature (or of an Ed25519ph one, with prehashed).',
  }),
  signature_algorithm: field.enum({
    description: 'RSA keys: pss (default) or pkcs1v15.',
    values: ['pss', 'pkcs1v15'] as const,
    default: 'pss' as const,
  }),
  marshaling_algorithm: field.enum({
    description: 'asn1 (default; ECDSA signatures in DER) or jws (r ‖ s, base64url).',
    values: ['asn1', 'jws'] as const,
    default: 'asn1' as const,
  }),
  salt_length: field.string({ description: 'RSA PSS: auto (default), hash, or bytes (≥ -1).', default: 'auto' }),
  batch_input: field.objects({ description: 'Items of input (and signature or hmac), context and reference.' }),
  partial_failure_response_code: partialFailureField,
};

/** The URL form (`sign/:name/:urlalgorithm`) names the hash in the path. */
export const urlAlgorithm = {
  urlalgorithm: field.path({ description: 'Hash algorithm, in the URL instead of the body.' }),
};

export interface SignData {
  name: string;
  input?: string;
  context?: string;
  key_version: number;
  hash_algorithm?: string;
  algorithm?: string;
  prehashed: boolean;
  signature_context?: string;
  signature_algorithm: 'pss' | 'pkcs1v15';
  marshaling_algorithm: 'asn1' | 'jws';
  salt_length: string;
  batch_input?: Record<string, unknown>[];
  partial_failure_response_code?: number;
}

/** The hash the request names, if it names one. */
function namedHash(data: SignData): string {
  return (data as { urlalgorithm?: string }).urlalgorithm || data.hash_algorithm || data.algorithm || '';
}

export function hashOf(data: SignData): HashAlgorithm {
  return hashAlgorithmOf(namedHash(data) || 'sha2-256');
}

/**
 * The Ed25519 variant an ed25519 key's request asks for: Ed25519ph with `prehashed` (its hash
 * must be SHA-512: `hash_algorithm` `sha2-512` or none), Ed25519ctx with a `signature_context`
 * (the batch item's, else the request's), else plain Ed25519. Other key types take no
 * `signature_context` (400).
 */
export function ed25519VariantOf(kind: KeyKind, data: SignData, itemContext: string | undefined): Ed25519Variant {
  const text = itemContext || data.signature_context || '';
  const context = optionalBase64(text, 'signature_context') ?? Buffer.alloc(0);
  if (kind !== 'ed25519') {
    if (text) throw new InvalidRequestError(`signature_context is only supported for ed25519 keys`);
    return { isPrehashed: false, context };
  }
  const hash = namedHash(data);
  if (data.prehashed && hash && hashAlgorithmOf(hash) !== 'sha2-512')
    throw new InvalidRequestError('prehashed ed25519 signatures (Ed25519ph) use hash_algorithm sha2-512');
  return { isPrehashed: data.prehashed, context };
}

export function signatureOptionsOf(data: SignData): SignatureOptions {
  return {
    hash: hashOf(data),
    signatureAlgorithm: data.signature_algorithm,
    saltLength: parseSaltLength(data.salt_length),
    marshaling: data.marshaling_algorithm,
  };
}

/** Signature bytes as text: base64, or unpadded base64url for jws. */
export function encodeSignature(signature: Buffer, marshaling: 'asn1' | 'jws'): string {
  return signature.toString(marshaling === 'jws' ? 'base64url' : 'base64');
}

export function decodeSignature(text: string, marshaling: 'asn1' | 'jws'): Buffer {
  const pattern = marshaling === 'jws' ? /^[A-Za-z0-9_-]*$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!pattern.test(text)) throw new InvalidRequestError('invalid signature: could not decode');
  return Buffer.from(text, marshaling === 'jws' ? 'base64url' : 'base64');
}
