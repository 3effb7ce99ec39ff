import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { SymmetricKeyType } from './symmetric.js';

/** A transit key backed by a managed key, under `policy/<name>`. Field names keep the API's spelling. */
export interface ManagedTransitKey {
  type: 'managed_key';
  /** The managed key's UUID: the engine follows the id, so a key deleted and re-created under the name is not used. */
  managed_key_id: string;
  managed_key_name: string;
  creation_time: string;
}

/** One version of a symmetric key: its material (base64, behind the barrier, never returned) and birth. */
export interface KeyVersion {
  key: string;
  creation_time: string;
}

/** A symmetric key the engine holds itself, with every version since the last trim. */
export interface SymmetricTransitKey {
  type: SymmetricKeyType;
  /** `versions[v - 1]` is version v; the latest encrypts. */
  versions: KeyVersion[];
  /** Ciphertexts of older versions are refused. */
  min_decryption_version: number;
  /** Delete refuses the key until this is set (keys are not recoverable). */
  deletion_allowed: boolean;
}

export type TransitKeyEntry = ManagedTransitKey | SymmetricTransitKey;

const PREFIX = 'policy/';

/** The keys of one mount. Stateless: every call reads or writes the mount's storage. */
export const transitKeys = {
  get: (storage: Storage, name: string) => getJson<TransitKeyEntry>(storage, PREFIX + name),
  put: (storage: Storage, name: string, entry: TransitKeyEntry) => putJson(storage, PREFIX + name, entry),
  delete: (storage: Storage, name: string) => storage.delete(PREFIX + name),
  list: (storage: Storage) => storage.list(PREFIX),
};

export function isManaged(entry: TransitKeyEntry): entry is ManagedTransitKey {
  return entry.type === 'managed_key';
}
