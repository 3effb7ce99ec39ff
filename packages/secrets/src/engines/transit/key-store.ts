import { InvalidRequestError } from '../../logical/errors.js';
import { getFrozenJson, getJson, putJson, type Storage } from '../../logical/storage.js';
import type { HeldKeyType, KeyVersion } from './key-types.js';

/** A transit key backed by a managed key, under `policy/<name>`. Field names keep the API's spelling. */
export interface ManagedTransitKey {
  type: 'managed_key';
  /** The managed key's UUID: the engine follows the id, so a key deleted and re-created under the name is not used. */
  managed_key_id: string;
  managed_key_name: string;
  creation_time: string;
}

/** A key the engine holds itself: every version from `min_available_version` (or 1) on. */
export interface HeldTransitKey {
  type: HeldKeyType;
  /** Version number (decimal) to version; versions below `min_available_version` were trimmed. */
  versions: Record<string, KeyVersion>;
  latest_version: number;
  /** Ciphertexts and signatures of older versions are refused. */
  min_decryption_version: number;
  /** Oldest version encrypt/sign may use (0: only the latest). */
  min_encryption_version: number;
  /** Versions below it are gone (trim); 0 before any trim. */
  min_available_version: number;
  /** Delete refuses the key until this is set (keys are not recoverable). */
  deletion_allowed: boolean;
  /** Export allowed; cannot be turned off again. */
  exportable: boolean;
  /** Backup allowed; cannot be turned off again. */
  allow_plaintext_backup: boolean;
  /** Each operation derives its key from `context` (HKDF-SHA256). */
  derived: boolean;
  /** With `derived`: the nonce comes from the plaintext, so equal plaintexts give equal ciphertexts. */
  convergent_encryption: boolean;
  /** Seconds between automatic rotations; 0: never. */
  auto_rotate_period: number;
  /** type hmac: bytes of key material (32..512). */
  key_size?: number;
  /** The material came from keys/:name/import (BYOK); rotation then needs `allow_imported_key_rotation`. */
  imported_key?: boolean;
  allow_imported_key_rotation?: boolean;
}

export type TransitKeyEntry = ManagedTransitKey | HeldTransitKey;

const PREFIX = 'policy/';

/** What earlier releases stored: one array of versions, no HMAC keys. */
interface LegacyHeldKey {
  type: HeldKeyType;
  versions: { key: string; creation_time: string }[];
  min_decryption_version: number;
  deletion_allowed: boolean;
}

function upgrade(entry: TransitKeyEntry | LegacyHeldKey): TransitKeyEntry {
  if (entry.type === 'managed_key' || !Array.isArray(entry.versions)) return entry as TransitKeyEntry;
  const legacy = entry as LegacyHeldKey;
  const versions: Record<string, KeyVersion> = {};
  // Those versions predate HMAC keys: hmac/:name with them is refused (hmac_key empty).
  legacy.versions.forEach((v, i) => {
    versions[String(i + 1)] = { key: v.key, hmac_key: '', creation_time: v.creation_time };
  });
  return {
    type: legacy.type,
    versions,
    latest_version: legacy.versions.length,
    min_decryption_version: legacy.min_decryption_version,
    min_encryption_version: 0,
    min_available_version: 0,
    deletion_allowed: legacy.deletion_allowed,
    exportable: false,
    allow_plaintext_backup: false,
    derived: false,
    convergent_encryption: false,
    auto_rotate_period: 0,
  };
}

/** The keys of one mount. Stateless: every call reads or writes the mount's storage. */
export const transitKeys = {
  get: async (storage: Storage, name: string): Promise<TransitKeyEntry | undefined> => {
    const entry = await getJson<TransitKeyEntry | LegacyHeldKey>(storage, PREFIX + name);
    return entry && upgrade(entry);
  },
  /**
   * The key for an operation that only reads it (encrypt, decrypt, sign, verify, hmac): decoded once
   * and frozen by the barrier while it is unchanged, so a request neither decrypts nor parses it.
   */
  view: async (storage: Storage, name: string): Promise<TransitKeyEntry | undefined> => {
    const entry = await getFrozenJson<TransitKeyEntry | LegacyHeldKey>(storage, PREFIX + name);
    return entry && upgrade(entry as TransitKeyEntry | LegacyHeldKey);
  },
  put: (storage: Storage, name: string, entry: TransitKeyEntry) => putJson(storage, PREFIX + name, entry),
  delete: (storage: Storage, name: string) => storage.delete(PREFIX + name),
  list: (storage: Storage) => storage.list(PREFIX),
};

export function isManaged(entry: TransitKeyEntry): entry is ManagedTransitKey {
  return entry.type === 'managed_key';
}

/** Version `version` of `entry`, or a 400 when it never existed or was trimmed. */
export function versionOf(entry: HeldTransitKey, version: number): KeyVersion {
  const found = Object.hasOwn(entry.versions, String(version)) ? entry.versions[String(version)] : undefined;
  if (!Number.isInteger(version) || !found) throw new InvalidRequestError('invalid key version');
  return found;
}

/**
 * The version an encryption or signature uses: `requested` (0: the latest), refused below
 * `min_encryption_version` or above the latest, as established.
 */
export function encryptionVersion(entry: HeldTransitKey, requested: number): number {
  if (requested === 0) return entry.latest_version;
  if (requested < 0 || requested > entry.latest_version) throw new InvalidRequestError('invalid key version');
  if (entry.min_encryption_version > 0 && requested < entry.min_encryption_version)
    throw new InvalidRequestError('cannot encrypt/sign with a key version lower than the min_encryption_version');
  versionOf(entry, requested);
  return requested;
}

/** Refuses a ciphertext or signature of a version below `min_decryption_version`, or one not held. */
export function decryptionVersion(entry: HeldTransitKey, version: number): KeyVersion {
  if (version < entry.min_decryption_version)
    throw new InvalidRequestError('ciphertext or signature version is disallowed by policy (too old)');
  if (version > entry.latest_version) throw new InvalidRequestError('invalid key version');
  return versionOf(entry, version);
}
