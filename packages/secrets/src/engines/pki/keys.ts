import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import { InvalidRequestError } from '../../logical/errors.js';

/**
 * Keys of the PKI engine: made by Node's crypto, kept as PKCS#8 PEM, and handed to WebCrypto (which
 * @peculiar/x509 signs with) when a certificate, CSR or CRL is signed.
 */

const generate = promisify(generateKeyPair);

export type PkiKeyType = 'rsa' | 'ec' | 'ed25519';
export const KEY_TYPES = ['rsa', 'ec', 'ed25519'] as const;

const RSA_BITS = new Set([2048, 3072, 4096, 8192]);
const EC_CURVES = new Map<number, { node: string; web: string; hash: string }>([
  [224, { node: 'secp224r1', web: 'P-224', hash: 'SHA-256' }],
  [256, { node: 'prime256v1', web: 'P-256', hash: 'SHA-256' }],
  [384, { node: 'secp384r1', web: 'P-384', hash: 'SHA-384' }],
  [521, { node: 'secp521r1', web: 'P-521', hash: 'SHA-512' }],
]);
const NODE_CURVE_BITS = new Map([
  ['prime256v1', 256],
  ['secp384r1', 384],
  ['secp521r1', 521],
  ['secp224r1', 224],
]);

/** `key_type` and `key_bits` as established: 0 bits picks the default (RSA 2048, EC P-256). */
export function checkKeyParams(type: string, bits: number): { type: PkiKeyType; bits: number } {
  if (type === 'rsa') {
    const b = bits || 2048;
    if (!RSA_BITS.has(b)) throw new InvalidRequestError(`unsupported bit length for RSA key: ${bits}`);
    return { type, bits: b };
  }
  if (type === 'ec') {
    const b = bits || 256;
    if (!EC_CURVES.has(b)) throw new InvalidRequestError(`unsupported bit length for EC key: ${bits}`);
    return { type, bits: b };
  }
  if (type === 'ed25519') return { type, bits: 0 };
  throw new InvalidRequestError(`unknown key type ${type}`);
}

/** A new private key, PKCS#8 PEM. */
export async function newPrivateKey(type: PkiKeyType, bits: number): Promise<string> {
  const pair =
    type === 'rsa'
      ? await generate('rsa', { modulusLength: bits })
      : type === 'ec'
        ? await generate('ec', { namedCurve: EC_CURVES.get(bits)?.node ?? 'prime256v1' })
        : await generate('ed25519', {});
  return pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** The type and size of a key (RSA modulus bits, EC curve bits, 0 for ed25519). */
export function describeKey(key: KeyObject): { type: PkiKeyType; bits: number } {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa') return { type: 'rsa', bits: details?.modulusLength ?? 0 };
  if (key.asymmetricKeyType === 'ec') return { type: 'ec', bits: NODE_CURVE_BITS.get(details?.namedCurve ?? '') ?? 0 };
  if (key.asymmetricKeyType === 'ed25519') return { type: 'ed25519', bits: 0 };
  throw new InvalidRequestError(`unsupported key type ${key.asymmetricKeyType}`);
}

/** A private key from PEM (PKCS#1, SEC 1 or PKCS#8) or 400. */
export function parsePrivateKey(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new InvalidRequestError('unable to parse the private key');
  }
}

/** The SubjectPublicKeyInfo DER of a key, to match keys with certificates. */
export function spkiOf(key: KeyObject): Buffer {
  const publicKey = key.type === 'public' ? key : createPublicKey(key);
  return publicKey.export({ format: 'der', type: 'spki' });
}

/**
 * The WebCrypto algorithm a key of `type` signs certificates and CRLs with: RSA PKCS#1 v1.5 with
 * `signatureBits` (default SHA-256), ECDSA with the curve's hash, Ed25519.
 */
export function signingAlgorithm(type: PkiKeyType, bits: number, signatureBits = 0, usePss = false) {
  if (type === 'rsa') {
    const hash = `SHA-${signatureBits || 256}`;
    return usePss
      ? { name: 'RSA-PSS', hash, saltLength: (signatureBits || 256) / 8 }
      : { name: 'RSASSA-PKCS1-v1_5', hash };
  }
  if (type === 'ec') {
    const curve = EC_CURVES.get(bits);
    return {
      name: 'ECDSA',
      namedCurve: curve?.web ?? 'P-256',
      hash: signatureBits ? `SHA-${signatureBits}` : (curve?.hash ?? 'SHA-256'),
    };
  }
  return { name: 'Ed25519' };
}

/** The WebCrypto pair of a stored key, for @peculiar/x509's generators. */
export async function cryptoKeyPair(
  privatePem: string,
  algorithm: { name: string; hash?: string; namedCurve?: string },
) {
  const key = parsePrivateKey(privatePem);
  const importAlgorithm =
    algorithm.name === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: algorithm.namedCurve }
      : { name: algorithm.name, hash: algorithm.hash };
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    key.export({ format: 'der', type: 'pkcs8' }),
    importAlgorithm,
    false,
    ['sign'],
  );
  const publicKey = await webcrypto.subtle.importKey('spki', spkiOf(key), importAlgorithm, true, ['verify']);
  // Node's WebCrypto keys are the global CryptoKey @peculiar/x509 is typed with.
  return { privateKey: privateKey as unknown as CryptoKey, publicKey: publicKey as unknown as CryptoKey };
}
