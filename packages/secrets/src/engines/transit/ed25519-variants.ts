import { type KeyObject, sign, verify } from 'node:crypto';
import { eddsa } from '@noble/curves/abstract/edwards.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { InvalidRequestError } from '../../logical/errors.js';

/**
 * The Ed25519 variants of RFC 8032 beside plain Ed25519: Ed25519ctx (a context string the
 * signature is bound to) and Ed25519ph (the caller gives the message's SHA-512 digest).
 *
 * Ed25519ctx is Node's `crypto` (OpenSSL's Ed25519ctx instance, chosen by a non-empty context).
 * Ed25519ph of a digest the caller made has no entry point in Node or in `@noble/curves`
 * (whose `ed25519ph` hashes the message itself), so it is `@noble/curves`' EdDSA built over
 * the Ed25519 point with SHA-512 as RFC 8032 §5.1 sets out: the digest passed through as PH(M),
 * the `dom2` prefix with the pre-hash flag, and Ed25519's scalar clamping (§5.1.5). Each
 * signing key is checked to give the key's own public key, and the RFC's test vectors pin it.
 */

/** RFC 8032 §5.1: the longest context of Ed25519ctx and Ed25519ph. */
const MAX_CONTEXT_BYTES = 255;
const SHA512_BYTES = 64;

/** RFC 8032 §2, dom2(phflag, context), before the hashed data. */
function dom2(data: Uint8Array, context: Uint8Array, isPrehashed: boolean): Uint8Array {
  const prefix = Buffer.from('SigEd25519 no Ed25519 collisions', 'ascii');
  return Buffer.concat([prefix, Buffer.from([isPrehashed ? 1 : 0, context.length]), context, data]);
}

/** RFC 8032 §5.1.5: clear the low three bits and the top bit, set the second-highest bit. */
function clamp(bytes: Uint8Array): Uint8Array {
  bytes[0] = (bytes[0] ?? 0) & 248;
  bytes[31] = ((bytes[31] ?? 0) & 127) | 64;
  return bytes;
}

const ed25519phOfDigest = eddsa(ed25519.Point, sha512, {
  domain: dom2,
  prehash: (digest: Uint8Array) => digest,
  adjustScalarBytes: clamp,
});

/** Which variant a request asks for. */
export interface Ed25519Variant {
  /** Ed25519ph: the input is the SHA-512 digest of the message. */
  isPrehashed: boolean;
  /** Ed25519ctx (non-empty, not prehashed) or the context of Ed25519ph; empty for plain Ed25519. */
  context: Buffer;
}

/** Whether the request is plain Ed25519, which the callers sign as before. */
export function isPlainEd25519(v: Ed25519Variant): boolean {
  return !v.isPrehashed && v.context.length === 0;
}

function checkVariant(v: Ed25519Variant, input: Buffer): void {
  if (v.context.length > MAX_CONTEXT_BYTES)
    throw new InvalidRequestError(`signature_context is longer than ${MAX_CONTEXT_BYTES} bytes`);
  if (v.isPrehashed && input.length !== SHA512_BYTES)
    throw new InvalidRequestError(`prehashed ed25519 input must be a ${SHA512_BYTES}-byte SHA-512 digest`);
}

function rawKeys(privateKey: KeyObject): { seed: Uint8Array; publicRaw: Uint8Array } {
  const jwk = privateKey.export({ format: 'jwk' });
  return { seed: Buffer.from(jwk.d ?? '', 'base64url'), publicRaw: Buffer.from(jwk.x ?? '', 'base64url') };
}

function publicRawOf(publicKey: KeyObject): Uint8Array {
  return Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
}

/** An Ed25519ctx or Ed25519ph signature of `input` (see `Ed25519Variant`). */
export function signEd25519Variant(privateKey: KeyObject, input: Buffer, v: Ed25519Variant): Buffer {
  checkVariant(v, input);
  if (!v.isPrehashed) return sign(null, input, { key: privateKey, context: v.context });
  const { seed, publicRaw } = rawKeys(privateKey);
  if (!Buffer.from(ed25519phOfDigest.getPublicKey(seed)).equals(publicRaw))
    throw new Error('Ed25519ph signing key does not match its public key');
  return Buffer.from(ed25519phOfDigest.sign(input, seed, { context: v.context }));
}

/** Whether `signature` is an Ed25519ctx or Ed25519ph signature of `input`; malformed ones are not. */
export function verifyEd25519Variant(publicKey: KeyObject, input: Buffer, signature: Buffer, v: Ed25519Variant) {
  checkVariant(v, input);
  try {
    if (!v.isPrehashed) return verify(null, input, { key: publicKey, context: v.context }, signature);
    return ed25519phOfDigest.verify(signature, input, publicRawOf(publicKey), { context: v.context, zip215: false });
  } catch {
    return false;
  }
}
