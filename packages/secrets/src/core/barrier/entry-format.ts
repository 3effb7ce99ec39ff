import { createCipheriv, createDecipheriv } from 'node:crypto';
import { InternalError } from '../../logical/errors.js';

/**
 * The format of one encrypted storage entry, shared by the barrier (every value behind it) and the
 * Shamir seal (the root key sealed with the unseal key).
 */

/** Version 2 of the established format: the storage path is GCM associated data. */
const VERSION_PATH_AAD = 2;
export const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** 4-byte big-endian term, 1 version byte, 12-byte nonce. */
const HEADER_BYTES = 4 + 1 + NONCE_BYTES;

/**
 * Encrypts `plaintext` for storage at `path`:
 * `[4-byte big-endian term][version 2][12-byte nonce][AES-256-GCM ciphertext][16-byte tag]`.
 * Binding the path means a value copied to another key no longer decrypts.
 */
export function encryptEntry(
  key: Uint8Array,
  term: number,
  path: string,
  nonce: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(path, 'utf8'));
  const body = cipher.update(plaintext);
  cipher.final(); // GCM produces no output here; it computes the tag.
  // Its own buffer (not a slice of Node's pool), so the barrier's cache can keep it without a copy.
  const out = Buffer.allocUnsafeSlow(HEADER_BYTES + body.length + TAG_BYTES);
  out.writeUInt32BE(term, 0);
  out[4] = VERSION_PATH_AAD;
  out.set(nonce, 5);
  out.set(body, HEADER_BYTES);
  out.set(cipher.getAuthTag(), HEADER_BYTES + body.length);
  return out;
}

/** The term the entry at `path` was encrypted with. */
export function entryTerm(path: string, value: Uint8Array): number {
  if (value.length < HEADER_BYTES + TAG_BYTES) {
    throw new InternalError(`failed to decrypt "${path}": stored value is too short to be encrypted`);
  }
  return ((value[0]! << 24) | (value[1]! << 16) | (value[2]! << 8) | value[3]!) >>> 0;
}

/**
 * The plaintext of an entry `encryptEntry` wrote for `path`, or `undefined` when it does not
 * authenticate (wrong key, another path, or tampered bytes). A malformed entry is an `InternalError`.
 */
export function decryptEntry(key: Uint8Array, path: string, value: Uint8Array): Buffer | undefined {
  entryTerm(path, value); // checks the length
  if (value[4] !== VERSION_PATH_AAD) {
    throw new InternalError(`failed to decrypt "${path}": unsupported encryption version ${value[4]}`);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, value.subarray(5, HEADER_BYTES));
  decipher.setAAD(Buffer.from(path, 'utf8'));
  decipher.setAuthTag(value.subarray(value.length - TAG_BYTES));
  const plaintext = decipher.update(value.subarray(HEADER_BYTES, value.length - TAG_BYTES));
  try {
    decipher.final();
  } catch {
    plaintext.fill(0);
    return undefined;
  }
  return plaintext;
}
