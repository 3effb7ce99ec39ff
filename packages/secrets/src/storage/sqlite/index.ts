/** `storage "sqlite" { path = "…" }`: one database file; with `workers` > 1 also the lock row and the change log its worker processes share. @module */
import { BlockValues } from '../block-values.js';
import { defineStorage } from '../storage-type.js';
import { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';
import { SqliteChangeFeed } from './sqlite-change-feed.js';
import { SqliteHaLock } from './sqlite-lock.js';

export { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';
export { SqliteChangeFeed } from './sqlite-change-feed.js';
export { SqliteHaLock } from './sqlite-lock.js';

/**
 * `storage "sqlite" { path = "…" }`: the embedded default, one database file. HA only between the
 * worker processes of one server (`workers` > 1, which sets `hasChangeLog`): a lock row and a change log.
 */
export const sqliteStorage = defineStorage({
  keys: ['path'],
  parse: (block): SqliteStorageOptions => ({ path: new BlockValues('sqlite', block).requiredText('path') }),
  create: (options) => new SqliteStorage(options),
  describe: (options) => `path: ${options.path}`,
  ha: (backend: SqliteStorage) =>
    backend.hasChangeLog
      ? {
          newLock: (value: string) => new SqliteHaLock({ path: backend.path, value }),
          feed: new SqliteChangeFeed(backend),
        }
      : undefined,
});
