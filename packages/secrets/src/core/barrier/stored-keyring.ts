import { InternalError } from '../../logical/errors.js';
import type { StorageBackend } from '../../storage/index.js';
import { decryptEntry, entryTerm } from './entry-format.js';
import { Keyring } from './keyring.js';

/** The keyring, encrypted with the root key. */
export const KEYRING_PATH = 'core/keyring';
/**
 * A copy of the root key, encrypted with the keyring's active term (as established servers keep
 * it): a server sharing the storage reads a new root key from it (see `openStoredKeyring`).
 */
export const ROOT_KEY_PATH = 'core/root-key';

/** The keyring and root key a server holds while unsealed. */
export interface HeldKeys {
  keyring: Keyring;
  rootKey: Uint8Array;
}

/**
 * The keyring storage holds now, opened with the root key `held` has, or, when another server
 * sharing the storage replaced the root key (a rekey under an auto seal, the end of a seal
 * migration), with the new one. Replacing the root key leaves the keyring's terms as they were,
 * so the new root key's copy at `ROOT_KEY_PATH` is encrypted with a term `held.keyring` has: that
 * copy is read, checked by opening the keyring with it, and answered as `rootKey` (a new array;
 * `held.rootKey` itself when unchanged). When the copy is under a term `held.keyring` lacks (the
 * keyring was also rotated, and this server has not read it yet), `sealedRootKey` is asked last:
 * an auto seal reads the root key through its key service. An `InternalError` when the keyring
 * opens with none of them.
 */
export async function openStoredKeyring(
  physical: StorageBackend,
  held: HeldKeys,
  sealedRootKey?: () => Promise<Uint8Array | undefined>,
): Promise<HeldKeys> {
  const stored = await physical.get(KEYRING_PATH);
  if (stored === undefined) throw new InternalError('the stored keyring is missing');
  const withHeld = decryptEntry(held.rootKey, KEYRING_PATH, stored);
  if (withHeld) return { keyring: parseKeyring(withHeld), rootKey: held.rootKey };
  for (const candidate of [() => storedRootKey(physical, held.keyring), sealedRootKey]) {
    const rootKey = await candidate?.();
    const plaintext = rootKey && decryptEntry(rootKey, KEYRING_PATH, stored);
    if (rootKey && plaintext) return { keyring: parseKeyring(plaintext), rootKey };
    rootKey?.fill(0);
  }
  throw new InternalError('the stored keyring opens neither with the root key held nor with the stored root key');
}

/** The root key's stored copy, when a term of `keyring` opens it. */
async function storedRootKey(physical: StorageBackend, keyring: Keyring): Promise<Uint8Array | undefined> {
  const copy = await physical.get(ROOT_KEY_PATH);
  const entry = copy && keyring.term(entryTerm(ROOT_KEY_PATH, copy));
  const plaintext = copy && entry && decryptEntry(entry.key, ROOT_KEY_PATH, copy);
  if (!plaintext) return undefined;
  const rootKey = new Uint8Array(plaintext);
  plaintext.fill(0);
  return rootKey;
}

/** The keyring in a decrypted keyring entry, the plaintext zeroed once read. */
export function parseKeyring(plaintext: Buffer): Keyring {
  try {
    return Keyring.fromJson(plaintext.toString('utf8'));
  } finally {
    plaintext.fill(0);
  }
}
