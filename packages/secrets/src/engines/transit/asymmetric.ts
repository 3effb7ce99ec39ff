import { constants, type KeyObject, privateDecrypt, publicEncrypt, sign, verify } from 'node:crypto';
import { type HashAlgorithm, nodeHashName } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { KeyKind } from './key-types.js';

/** How a signature is made, as `sign/:name` and `verify/:name` take it. */
export interface SignatureOptions {
  hash: HashAlgorithm;
  /** RSA only. */
  signatureAlgorithm: 'pss' | 'pkcs1v15';
  /** RSA PSS only: Node's salt length (-2 most/auto-detect, -1 the digest's length, or bytes). */
  saltLength: number;
  /** ECDSA: asn1 (DER) or jws (r ‖ s); RSA: jws changes only the text encoding. */
  marshaling: 'asn1' | 'jws';
}

/** `salt_length` as established: `auto` (0), `hash` (-1) or a number of bytes ≥ -1; Node's constant for it. */
export function parseSaltLength(text: string): number {
  const lower = text.toLowerCase();
  if (lower === 'auto' || lower === '0') return constants.RSA_PSS_SALTLEN_AUTO;
  if (lower === 'hash' || lower === '-1') return constants.RSA_PSS_SALTLEN_DIGEST;
  if (!/^-?[0-9]+$/.test(text) || Number(text) < -1)
    throw new InvalidRequestError(`invalid salt_length: salt length must be "auto", "hash" or an integer >= -1`);
  return Number(text);
}

function keyOptions(kind: KeyKind, key: KeyObject, o: SignatureOptions) {
  if (kind === 'rsa' && o.signatureAlgorithm === 'pss')
    return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: o.saltLength };
  if (kind === 'rsa') return { key, padding: constants.RSA_PKCS1_PADDING };
  if (kind === 'ecdsa')
    return { key, dsaEncoding: o.marshaling === 'jws' ? ('ieee-p1363' as const) : ('der' as const) };
  return { key };
}

/** Signs `input` (ed25519 signs it whole; ECDSA and RSA sign its `hash`). */
export function signWith(kind: KeyKind, key: KeyObject, input: Buffer, o: SignatureOptions): Buffer {
  const algorithm = kind === 'ed25519' ? null : nodeHashName(o.hash);
  return sign(algorithm, input, keyOptions(kind, key, o));
}

/** Whether `signature` signs `input`; a malformed signature is simply not valid. */
export function verifyWith(kind: KeyKind, key: KeyObject, input: Buffer, signature: Buffer, o: SignatureOptions) {
  const algorithm = kind === 'ed25519' ? null : nodeHashName(o.hash);
  const options = keyOptions(kind, key, o);
  // Verifying, "auto" detects the salt length (signing, it uses the most that fits).
  try {
    return verify(algorithm, input, options, signature);
  } catch {
    return false;
  }
}

/** RSA keys encrypt with OAEP (SHA-256), as established. */
export function rsaEncrypt(publicKey: KeyObject, plaintext: Buffer): Buffer {
  try {
    return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, plaintext);
  } catch {
    throw new InvalidRequestError('failed to RSA encrypt the plaintext: message too long');
  }
}

export function rsaDecrypt(privateKey: KeyObject, ciphertext: Buffer): Buffer {
  try {
    return privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      ciphertext,
    );
  } catch {
    throw new InvalidRequestError('failed to RSA decrypt the ciphertext: crypto/rsa: decryption error');
  }
}
