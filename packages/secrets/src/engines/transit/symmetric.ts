import { type CipherGCMTypes, createCipheriv, createDecipheriv } from 'node:crypto';
import type { Random } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';

/** The symmetric key types the engine holds itself: AEADs with a 96-bit nonce and a 128-bit tag. */
export const SYMMETRIC_KEY_TYPES = ['aes256-gcm96', 'aes128-gcm96', 'chacha20-poly1305'] as const;
export type SymmetricKeyType = (typeof SYMMETRIC_KEY_TYPES)[number];

const ALGORITHMS = new Map<SymmetricKeyType, { cipher: CipherGCMTypes | 'chacha20-poly1305'; keyBytes: number }>([
  ['aes256-gcm96', { cipher: 'aes-256-gcm', keyBytes: 32 }],
  ['aes128-gcm96', { cipher: 'aes-128-gcm', keyBytes: 16 }],
  ['chacha20-poly1305', { cipher: 'chacha20-poly1305', keyBytes: 32 }],
]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

function algorithmOf(type: SymmetricKeyType) {
  const algorithm = ALGORITHMS.get(type);
  if (!algorithm) throw new InvalidRequestError(`unsupported key type ${type}`);
  return algorithm;
}

/** Fresh key material for `type`. */
export function generateKey(type: SymmetricKeyType, random: Random): Buffer {
  return Buffer.from(random.bytes(algorithmOf(type).keyBytes));
}

/** `nonce ‖ ciphertext ‖ tag`, the established layout of a transit ciphertext's payload. */
export function seal(type: SymmetricKeyType, key: Buffer, plaintext: Buffer, random: Random): Buffer {
  const nonce = Buffer.from(random.bytes(NONCE_BYTES));
  const cipher = createCipheriv(algorithmOf(type).cipher as CipherGCMTypes, key, nonce, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** The plaintext of `payload`, or a 400 when it was not sealed by `key` (tampered, truncated, other key). */
export function open(type: SymmetricKeyType, key: Buffer, payload: Buffer): Buffer {
  if (payload.length < NONCE_BYTES + TAG_BYTES) throw new InvalidRequestError('invalid ciphertext: too short');
  const nonce = payload.subarray(0, NONCE_BYTES);
  const tag = payload.subarray(payload.length - TAG_BYTES);
  const decipher = createDecipheriv(algorithmOf(type).cipher as CipherGCMTypes, key, nonce, {
    authTagLength: TAG_BYTES,
  });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([
      decipher.update(payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new InvalidRequestError('cipher: message authentication failed');
  }
}
