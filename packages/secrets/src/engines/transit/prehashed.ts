import { constants, createHash, type KeyObject, privateEncrypt, publicDecrypt } from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import forge from 'node-forge';
import type { HashAlgorithm } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { SignatureOptions } from './asymmetric.js';
import type { KeyKind } from './key-types.js';

/**
 * Signatures of a digest the caller made (`prehashed=true`): the input is the hash named by
 * `hash_algorithm`, signed without hashing again, as established. Node's `crypto` always hashes
 * what it signs, so ECDSA goes through `@noble/curves`, RSA PSS through `node-forge` (its hash for
 * MGF1 and the PSS encoding is Node's, so every hash of the engine works), and RSA PKCS#1 v1.5 is
 * Node's raw RSA with PKCS#1 type-1 padding over the DigestInfo forge's ASN.1 encoder makes; a
 * prehashed ed25519 signature is Ed25519ph (`ed25519-variants.ts`).
 */

const CURVES = new Map([
  ['prime256v1', p256],
  ['secp384r1', p384],
  ['secp521r1', p521],
]);

interface DigestSpec {
  /** Node's name of the hash. */
  node: string;
  bytes: number;
  /** The hash's object identifier in a PKCS#1 v1.5 DigestInfo (RFC 8017, FIPS 202 for SHA-3). */
  oid: string;
}

/** The hashes prehashed RSA signatures take, by the engine's name (as established: SHA-1, SHA-2 and SHA-3). */
const RSA_DIGESTS = new Map<HashAlgorithm, DigestSpec>([
  ['sha1', { node: 'sha1', bytes: 20, oid: '1.3.14.3.2.26' }],
  ['sha2-224', { node: 'sha224', bytes: 28, oid: '2.16.840.1.101.3.4.2.4' }],
  ['sha2-256', { node: 'sha256', bytes: 32, oid: '2.16.840.1.101.3.4.2.1' }],
  ['sha2-384', { node: 'sha384', bytes: 48, oid: '2.16.840.1.101.3.4.2.2' }],
  ['sha2-512', { node: 'sha512', bytes: 64, oid: '2.16.840.1.101.3.4.2.3' }],
  ['sha3-224', { node: 'sha3-224', bytes: 28, oid: '2.16.840.1.101.3.4.2.7' }],
  ['sha3-256', { node: 'sha3-256', bytes: 32, oid: '2.16.840.1.101.3.4.2.8' }],
  ['sha3-384', { node: 'sha3-384', bytes: 48, oid: '2.16.840.1.101.3.4.2.9' }],
  ['sha3-512', { node: 'sha3-512', bytes: 64, oid: '2.16.840.1.101.3.4.2.10' }],
]);

/** A forge message digest computed by Node's hash `spec.node` (forge's PSS and MGF1 call start, update and digest). */
function nodeDigest(spec: DigestSpec): forge.md.MessageDigest {
  let hash = createHash(spec.node);
  const md = {
    algorithm: spec.node,
    digestLength: spec.bytes,
    start: () => {
      hash = createHash(spec.node);
      return md;
    },
    update: (text: string, encoding?: string) => {
      hash.update(Buffer.from(text, encoding === 'utf8' ? 'utf8' : 'latin1'));
      return md;
    },
    digest: () => forge.util.createBuffer(hash.copy().digest().toString('latin1')),
  };
  return md as unknown as forge.md.MessageDigest;
}

/** The DER DigestInfo of `digest` (RFC 8017 9.2), made by forge's ASN.1 encoder. */
function digestInfo(spec: DigestSpec, digest: Buffer): Buffer {
  const { asn1 } = forge;
  const { UNIVERSAL } = asn1.Class;
  const info = asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(spec.oid).getBytes()),
      asn1.create(UNIVERSAL, asn1.Type.NULL, false, ''),
    ]),
    asn1.create(UNIVERSAL, asn1.Type.OCTETSTRING, false, digest.toString('latin1')),
  ]);
  return Buffer.from(asn1.toDer(info).getBytes(), 'latin1');
}

function curveOf(key: KeyObject) {
  const curve = CURVES.get(key.asymmetricKeyDetails?.namedCurve ?? '');
  if (!curve) throw new InvalidRequestError('unsupported curve for prehashed input');
  return curve;
}

function rsaDigest(hash: HashAlgorithm, digest: Buffer): DigestSpec {
  const spec = RSA_DIGESTS.get(hash);
  if (!spec)
    throw new InvalidRequestError(
      `prehashed RSA signatures support hash_algorithm ${[...RSA_DIGESTS.keys()].join(', ')}`,
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

function pssScheme(spec: DigestSpec, saltLength: number) {
  return forge.pss.create({ md: nodeDigest(spec), mgf: forge.mgf.mgf1.create(nodeDigest(spec)), saltLength });
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
  const spec = rsaDigest(o.hash, digest);
  if (o.signatureAlgorithm === 'pkcs1v15')
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, digestInfo(spec, digest));
  const md = givenDigest(spec.node, digest);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 2048;
  const [salt = spec.bytes] = saltLengths(o.saltLength, bits, spec.bytes, true);
  return Buffer.from(forgePrivate(key).sign(md, pssScheme(spec, salt)), 'binary');
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
  const spec = rsaDigest(o.hash, digest);
  if (o.signatureAlgorithm === 'pkcs1v15') {
    try {
      return publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature).equals(digestInfo(spec, digest));
    } catch {
      return false;
    }
  }
  const publicKey = forgePublic(key);
  const bytes = digest.toString('binary');
  const sig = signature.toString('binary');
  const attempt = (scheme: forge.pss.PSS) => {
    try {
      return publicKey.verify(bytes, sig, scheme);
    } catch {
      return false;
    }
  };
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 2048;
  return saltLengths(o.saltLength, bits, spec.bytes, false).some((salt) => attempt(pssScheme(spec, salt)));
}
