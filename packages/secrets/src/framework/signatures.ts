import { constants, createHash, type KeyObject, verify } from 'node:crypto';

/** The hashes `test/sign` accepts (`hash_algorithm`), in the spec's spelling. */
export const HASH_ALGORITHMS = [
  'sha1',
  'sha2-224',
  'sha2-256',
  'sha2-384',
  'sha2-512',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** Node's name of each hash. */
const NODE_HASH = new Map<HashAlgorithm, string>([
  ['sha1', 'sha1'],
  ['sha2-224', 'sha224'],
  ['sha2-256', 'sha256'],
  ['sha2-384', 'sha384'],
  ['sha2-512', 'sha512'],
  ['sha3-224', 'sha3-224'],
  ['sha3-256', 'sha3-256'],
  ['sha3-384', 'sha3-384'],
  ['sha3-512', 'sha3-512'],
]);

export function nodeHashName(hash: HashAlgorithm): string {
  return NODE_HASH.get(hash) ?? 'sha256';
}

export function digestOf(data: Uint8Array, hash: HashAlgorithm): Buffer {
  return createHash(nodeHashName(hash)).update(data).digest();
}

/** How a managed key signs: the hash of the message, and for RSA whether PSS (else PKCS#1 v1.5). */
export interface SignatureScheme {
  hash: HashAlgorithm;
  /** RSA only: RSASSA-PSS (MGF1 with the same hash, salt as long as the digest) instead of PKCS#1 v1.5. */
  usePss: boolean;
}

/** Whether `signature` is a valid signature of `data` under `key`, as managed keys make them (DER ECDSA). */
export function verifySignature(
  key: KeyObject,
  data: Uint8Array,
  signature: Uint8Array,
  options: SignatureScheme,
): boolean {
  const isRsa = key.asymmetricKeyType === 'rsa';
  const padding = isRsa && options.usePss ? constants.RSA_PKCS1_PSS_PADDING : undefined;
  return verify(
    nodeHashName(options.hash),
    data,
    padding === undefined ? key : { key, padding, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
    signature,
  );
}
