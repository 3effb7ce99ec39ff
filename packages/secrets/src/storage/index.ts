/** Storage: the interface every backend implements, the registry of types, the shared suites, snapshot archives. @module */
export type { ChangeFeed, StorageChange } from './change-feed.js';
export { EtcdChangeFeed, EtcdHaLock, EtcdStorage, type EtcdStorageOptions } from './etcd/index.js';
export { FileStorage, type FileStorageOptions } from './file/index.js';
export type { HaLock } from './ha-lock.js';
export { InmemStorage } from './inmem/index.js';
export { PostgresChangeFeed, PostgresHaLock, PostgresStorage } from './postgresql/index.js';
export {
  describeStorage,
  type OpenedStorage,
  openStorage,
  parseStorageBlock,
  type StorageConfig,
  storageType,
} from './registry.js';
export {
  readSnapshotArchive,
  type SnapshotMeta,
  type SumsSeal,
  type VerifiedSnapshot,
  writeSnapshotArchive,
} from './snapshot-archive.js';
export { SqliteChangeFeed, SqliteHaLock, SqliteStorage, type SqliteStorageOptions } from './sqlite/index.js';
export type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from './storage.js';
export { StorageUnusableError } from './storage-errors.js';
export type { StorageBlock, StorageHa } from './storage-type.js';
