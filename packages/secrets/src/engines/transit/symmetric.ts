import {
  type CipherGCMTypes,
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import type { Random } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { boundedCache } from './key-cache.js';
import { type HeldTransitKey, versionOf } from './key-store.js';
import type { HeldKeyType, KeyVersion } from './key-types.js';

const CIPHERS = new Map<HeldKeyType, CipherGCMTypes | 'chacha20-poly1305'>([
  ['aes256-gcm96', 'aes-256-gcm'],
  ['aes128-gcm96', 'aes-128-gcm'],
  ['chacha20-poly1305', 'chacha20-poly1305'],
]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** HMAC key bytes a convergent key derives after its encryption key. */
const CONVERGENT_HMAC_BYTES = 32;

function cipherOf(type: HeldKeyType): CipherGCMTypes {
  const cipher = CIPHERS.get(type);
  if (!cipher) throw new InvalidRequestError(`key type ${type} does not support this operation`);
  return cipher as CipherGCMTypes;
}

/** The established refusal of an operation on a derived key without a `context`. */
export const MISSING_CONTEXT =
  "missing 'context' for key derivation; the key was created using a derived key, which means additional, per-request information must be included in order to perform operations with the key";

/** The keys one operation uses: the AEAD key and, for convergent keys, the key of the nonce's HMAC. */
export interface OperationKeys {
  encKey: Buffer | KeyObject;
  nonceKey?: Buffer;
}

/**
 * The keys of `version` for `context`, as established: the stored key itself, or for a derived key
 * HKDF-SHA256 (no salt, `context` as info) giving the encryption key and, when convergent, 32 more
 * bytes that key the nonce.
 */
export function operationKeys(entry: HeldTransitKey, version: number, context: Buffer | undefined): OperationKeys {
  const stored = versionOf(entry, version);
  if (!entry.derived) return { encKey: secretKeyOf(stored) };
  const raw = Buffer.from(stored.key, 'base64');
  if (!context || context.length === 0) throw new InvalidRequestError(MISSING_CONTEXT);
  const encBytes = entry.type === 'aes128-gcm96' ? 16 : 32;
  const total = encBytes + (entry.convergent_encryption ? CONVERGENT_HMAC_BYTES : 0);
  const derived = Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), context, total));
  return entry.convergent_encryption
    ? { encKey: derived.subarray(0, encBytes), nonceKey: derived.subarray(encBytes) }
    : { encKey: derived };
}

/** Secret key objects by stored key text (see `boundedCache`). */
const secretKeys = boundedCache<KeyObject>();
/** The same, by the version object: a frozen entry the barrier keeps (`transitKeys.view`) hits here without a lookup by text. */
const secretKeyByVersion = new WeakMap<KeyVersion, KeyObject>();

/** The AEAD key of `version`, imported once (decoding its base64 on every request was a tenth of an encryption). */
function secretKeyOf(version: KeyVersion): KeyObject {
  let key = secretKeyByVersion.get(version);
  if (!key) {
    key = secretKeys(version.key, () => createSecretKey(Buffer.from(version.key, 'base64')));
    secretKeyByVersion.set(version, key);
  }
  return key;
}

/**
 * `nonce ‖ ciphertext ‖ tag`, the established layout of a transit ciphertext's payload. A convergent
 * key's nonce is the first 12 bytes of HMAC-SHA256(nonceKey, plaintext); otherwise it is random.
 */
export function seal(
  type: HeldKeyType,
  keys: OperationKeys,
  plaintext: Buffer,
  random: Random,
  aad: Buffer | undefined,
): Buffer {
  const nonce = keys.nonceKey
    ? createHmac('sha256', keys.nonceKey).update(plaintext).digest().subarray(0, NONCE_BYTES)
    : random.bytes(NONCE_BYTES);
  const cipher = createCipheriv(cipherOf(type), keys.encKey, nonce, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(aad, { plaintextLength: plaintext.length });
  const body = cipher.update(plaintext);
  const last = cipher.final();
  return Buffer.concat([nonce, body, last, cipher.getAuthTag()]);
}

/** The plaintext of `payload`, or a 400 when it was not sealed by the key (tampered, truncated, other key). */
export function open(type: HeldKeyType, keys: OperationKeys, payload: Buffer, aad: Buffer | undefined): Buffer {
  if (payload.length < NONCE_BYTES + TAG_BYTES) throw new InvalidRequestError('invalid ciphertext length');
  const nonce = payload.subarray(0, NONCE_BYTES);
  const decipher = createDecipheriv(cipherOf(type), keys.encKey, nonce, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES));
  const body = payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES);
  if (aad) decipher.setAAD(aad, { plaintextLength: body.length });
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new InvalidRequestError('cipher: message authentication failed');
  }
}
