import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A transit key backed by a managed key, under `policy/<name>`. Field names keep the API's spelling. */
export interface TransitKeyEntry {
  type: 'managed_key';
  /** The managed key's UUID: the engine follows the id, so a key deleted and re-created under the name is not used. */
  managed_key_id: string;
  managed_key_name: string;
  creation_time: string;
}

const PREFIX = 'policy/';

/** The keys of one mount. Stateless: every call reads or writes the mount's storage. */
export const transitKeys = {
  get: (storage: Storage, name: string) => getJson<TransitKeyEntry>(storage, PREFIX + name),
  put: (storage: Storage, name: string, entry: TransitKeyEntry) => putJson(storage, PREFIX + name, entry),
  delete: (storage: Storage, name: string) => storage.delete(PREFIX + name),
  list: (storage: Storage) => storage.list(PREFIX),
};
