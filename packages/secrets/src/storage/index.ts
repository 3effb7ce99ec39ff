import { InvalidRequestError } from '../logical/errors.js';
import { EtcdStorage, type EtcdStorageOptions } from './etcd.js';
import { InmemStorage } from './inmem.js';
import { SqliteStorage } from './sqlite.js';
import type { StorageBackend } from './storage.js';

export type { ChangeFeed, StorageChange } from './change-feed.js';
export { EtcdStorage, type EtcdStorageOptions } from './etcd.js';
export { EtcdChangeFeed } from './etcd-change-feed.js';
export { EtcdHaLock, type EtcdHaLockOptions } from './etcd-lock.js';
export { InmemStorage } from './inmem.js';
export { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';
export type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from './storage.js';

/** The settings of a `storage "<type>" { ... }` block that the backends read. */
export interface StorageOptions {
  /** The database file (sqlite). */
  path?: string;
  /** The cluster and prefix (etcd). */
  etcd?: EtcdStorageOptions;
}

/**
 * The backend a configuration names: `inmem` (dev mode), `sqlite` (the embedded default) or
 * `etcd` (a replicated cluster).
 * `type` is a string because it comes from a configuration file.
 */
export function createStorage(type: string, options: StorageOptions = {}): StorageBackend {
  switch (type) {
    case 'inmem':
      return new InmemStorage();
    case 'sqlite':
      if (!options.path) throw new InvalidRequestError('storage "sqlite" needs a "path"');
      return new SqliteStorage({ path: options.path });
    case 'etcd':
      if (!options.etcd) throw new InvalidRequestError('storage "etcd" needs its cluster settings');
      return new EtcdStorage(options.etcd);
    default:
      throw new InvalidRequestError(`unknown storage type "${type}"`);
  }
}
export {
  readSnapshotArchive,
  type SnapshotMeta,
  type SumsSeal,
  type VerifiedSnapshot,
  writeSnapshotArchive,
} from './snapshot-archive.js';
