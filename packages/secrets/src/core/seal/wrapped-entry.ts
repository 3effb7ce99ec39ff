import type { Random } from '@ward/base';
import { InternalError, UpstreamError } from '../../logical/errors.js';
import { decodeJson, encodeJson } from '../../logical/storage.js';
import { decryptEntry, encryptEntry } from '../barrier/index.js';
import type { SealWrapper, WrappedKey } from './seal-wrapper.js';

const DATA_KEY_BYTES = 32;
const NONCE_BYTES = 12;
/** The data key has no keyring; entries carry term 1 as the barrier's format requires a term. */
const DATA_KEY_TERM = 1;

/** An entry an auto seal wrote (`core/hsm/barrier-unseal-keys`, `core/recovery-key`), stored in the clear. */
interface StoredWrappedEntry {
  /** The seal type that wrapped it (`core/seal-config`'s `type`). */
  type: string;
  /** The data key, wrapped by the seal's key. */
  wrapped: WrappedKey;
  /** The value, encrypted with the data key in the barrier's format (AES-256-GCM, the path as AAD), base64. */
  ciphertext: string;
}

/**
 * Envelope encryption of the seal's bootstrap entries: each value is encrypted here with a fresh
 * data key, and only the data key goes to the key service. One round trip per entry, whatever
 * the value's size, and no service sees the root key itself.
 */
export async function wrapEntry(
  wrapper: SealWrapper,
  random: Random,
  path: string,
  value: Uint8Array,
): Promise<Uint8Array> {
  const dataKey = random.bytes(DATA_KEY_BYTES);
  try {
    const ciphertext = encryptEntry(dataKey, DATA_KEY_TERM, path, random.bytes(NONCE_BYTES), value);
    const wrapped = await wrapper.wrap(dataKey);
    const entry: StoredWrappedEntry = {
      type: wrapper.storedType,
      wrapped,
      ciphertext: Buffer.from(ciphertext).toString('base64'),
    };
    return encodeJson(entry);
  } finally {
    dataKey.fill(0);
  }
}

/** The wrapped data key's key id: which key (version) an entry was written under. */
export function wrappedKeyId(stored: Uint8Array): string {
  return parseEntry(stored).wrapped.keyId;
}

/**
 * Decrypts an entry `wrapEntry` wrote. A wrapper that cannot unwrap the data key throws its
 * `UpstreamError`; a data key that does not open the value (the entry was tampered with) is
 * an `UpstreamError` too, since nothing the caller sent is at fault.
 */
export async function unwrapEntry(wrapper: SealWrapper, path: string, stored: Uint8Array): Promise<Buffer> {
  const entry = parseEntry(stored);
  const dataKey = await wrapper.unwrap(entry.wrapped);
  try {
    const plaintext = decryptEntry(dataKey, path, Buffer.from(entry.ciphertext, 'base64'));
    if (plaintext === undefined) throw new UpstreamError(`${path}: the seal's data key does not open the entry`);
    return plaintext;
  } finally {
    dataKey.fill(0);
  }
}

function parseEntry(stored: Uint8Array): StoredWrappedEntry {
  const entry = decodeJson<StoredWrappedEntry>(stored);
  if (typeof entry?.wrapped?.keyId !== 'string' || typeof entry.ciphertext !== 'string') {
    throw new InternalError('stored seal entry is not one an auto seal wrote');
  }
  return entry;
}
