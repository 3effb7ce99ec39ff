import { InvalidRequestError } from '../logical/errors.js';
import { InmemStorage } from './inmem.js';
import { SqliteStorage } from './sqlite.js';
import type { StorageBackend } from './storage.js';

export { InmemStorage } from './inmem.js';
export { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';
export type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from './storage.js';

/** The settings of a `storage "<type>" { ... }` block that the backends read. */
export interface StorageOptions {
  /** The database file (sqlite). */
  path?: string;
}

/**
 * The backend a configuration names: `inmem` (dev mode) or `sqlite` (the embedded default).
 * `type` is a string because it comes from a configuration file.
 */
export function createStorage(type: string, options: StorageOptions = {}): StorageBackend {
  switch (type) {
    case 'inmem':
      return new InmemStorage();
    case 'sqlite':
      if (!options.path) throw new InvalidRequestError('storage "sqlite" needs a "path"');
      return new SqliteStorage({ path: options.path });
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
