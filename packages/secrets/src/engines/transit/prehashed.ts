import { constants, type KeyObject } from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import forge from 'node-forge';
import type { HashAlgorithm } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { SignatureOptions } from './asymmetric.js';
import type { KeyKind } from './key-types.js';

/**
 * Signatures of a digest the caller made (`prehashed=true`): the input is the hash named by
 * `hash_algorithm`, signed without hashing again, as established. Node's `crypto` always hashes
 * what it signs, so ECDSA goes through `@noble/curves` and RSA (PSS and PKCS#1 v1.5) through
 * `node-forge`; ed25519 has no prehashed form here (refused by the caller).
 */

const CURVES = new Map([
  ['prime256v1', p256],
  ['secp384r1', p384],
  ['secp521r1', p521],
]);

/** The hashes forge's RSA signer knows, by the engine's name; forge has no SHA-224 for PSS and no SHA-3. */
const FORGE_HASHES = new Map<HashAlgorithm, { name: string; make: () => forge.md.MessageDigest; bytes: number }>([
  ['sha1', { name: 'sha1', make: () => forge.md.sha1.create(), bytes: 20 }],
  ['sha2-256', { name: 'sha256', make: () => forge.md.sha256.create(), bytes: 32 }],
  ['sha2-384', { name: 'sha384', make: () => forge.md.sha384.create(), bytes: 48 }],
  ['sha2-512', { name: 'sha512', make: () => forge.md.sha512.create(), bytes: 64 }],
]);

function curveOf(key: KeyObject) {
  const curve = CURVES.get(key.asymmetricKeyDetails?.namedCurve ?? '');
  if (!curve) throw new InvalidRequestError('unsupported curve for prehashed input');
  return curve;
}

function forgeHash(hash: HashAlgorithm, digest: Buffer) {
  const spec = FORGE_HASHES.get(hash);
  if (!spec)
    throw new InvalidRequestError(
      `prehashed RSA signatures support hash_algorithm ${[...FORGE_HASHES.keys()].join(', ')} here`,
    );
  if (digest.length !== spec.bytes)
    throw new InvalidRequestError(`crypto/rsa: input must be hashed with the given hash (${spec.bytes} bytes)`);
  return spec;
}

/** A stand-in for forge's message digest whose digest is the caller's bytes (forge reads only these two). */
function givenDigest(name: string, digest: Buffer): forge.md.MessageDigest {
  return {
    algorithm: name,
    digest: () => forge.util.createBuffer(digest.toString('binary')),
  } as forge.md.MessageDigest;
}

/** The salt lengths a PSS signature may have: Node's constant resolved for a modulus of `bits`. */
function saltLengths(saltLength: number, bits: number, hashBytes: number, signing: boolean): number[] {
  const most = Math.ceil((bits - 1) / 8) - hashBytes - 2;
  if (saltLength === constants.RSA_PSS_SALTLEN_DIGEST) return [hashBytes];
  // "auto": signing uses the most that fits; verifying accepts that or the digest's length.
  if (saltLength === constants.RSA_PSS_SALTLEN_AUTO) return signing ? [most] : [most, hashBytes];
  return [saltLength];
}

function pssScheme(make: () => forge.md.MessageDigest, saltLength: number) {
  return forge.pss.create({ md: make(), mgf: forge.mgf.mgf1.create(make()), saltLength });
}

function forgePrivate(key: KeyObject): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(key.export({ format: 'pem', type: 'pkcs1' }).toString());
}

function forgePublic(key: KeyObject): forge.pki.rsa.PublicKey {
  return forge.pki.publicKeyFromPem(key.export({ format: 'pem', type: 'spki' }).toString()) as forge.pki.rsa.PublicKey;
}

/** Signs `digest` (the input of a prehashed request) with an ECDSA or RSA private key. */
export function signDigest(kind: KeyKind, key: KeyObject, digest: Buffer, o: SignatureOptions): Buffer {
  if (kind === 'ecdsa') {
    const secret = Buffer.from(key.export({ format: 'jwk' }).d ?? '', 'base64url');
    const format = o.marshaling === 'jws' ? 'compact' : 'der';
    return Buffer.from(curveOf(key).sign(digest, secret, { prehash: false, format }));
  }
  if (kind !== 'rsa') throw new InvalidRequestError('prehashed input is not supported for this key type');
  const spec = forgeHash(o.hash, digest);
  const privateKey = forgePrivate(key);
  const md = givenDigest(spec.name, digest);
  if (o.signatureAlgorithm === 'pkcs1v15') return Buffer.from(privateKey.sign(md, 'RSASSA-PKCS1-V1_5'), 'binary');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 2048;
  const [salt = spec.bytes] = saltLengths(o.saltLength, bits, spec.bytes, true);
  return Buffer.from(privateKey.sign(md, pssScheme(spec.make, salt)), 'binary');
}

/** Whether `signature` signs `digest` under an ECDSA or RSA public key; malformed signatures are not valid. */
export function verifyDigest(kind: KeyKind, key: KeyObject, digest: Buffer, signature: Buffer, o: SignatureOptions) {
  if (kind === 'ecdsa') {
    const jwk = key.export({ format: 'jwk' });
    const point = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(jwk.x ?? '', 'base64url'),
      Buffer.from(jwk.y ?? '', 'base64url'),
    ]);
    const format = o.marshaling === 'jws' ? 'compact' : 'der';
    try {
      return curveOf(key).verify(signature, digest, point, { prehash: false, format, lowS: false });
    } catch {
      return false;
    }
  }
  if (kind !== 'rsa') throw new InvalidRequestError('prehashed input is not supported for this key type');
  const spec = forgeHash(o.hash, digest);
  const publicKey = forgePublic(key);
  const bytes = digest.toString('binary');
  const sig = signature.toString('binary');
  const attempt = (scheme: 'RSASSA-PKCS1-V1_5' | forge.pss.PSS) => {
    try {
      return publicKey.verify(bytes, sig, scheme);
    } catch {
      return false;
    }
  };
  if (o.signatureAlgorithm === 'pkcs1v15') return attempt('RSASSA-PKCS1-V1_5');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 2048;
  return saltLengths(o.saltLength, bits, spec.bytes, false).some((salt) => attempt(pssScheme(spec.make, salt)));
}
