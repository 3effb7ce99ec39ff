import { BlockValues } from '../block-values.js';
import { defineStorage } from '../storage-type.js';
import { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';

export { SqliteStorage, type SqliteStorageOptions } from './sqlite.js';

/** `storage "sqlite" { path = "…" }`: the embedded default, one database file. */
export const sqliteStorage = defineStorage({
  keys: ['path'],
  parse: (block): SqliteStorageOptions => ({ path: new BlockValues('sqlite', block).requiredText('path') }),
  create: (options) => new SqliteStorage(options),
  describe: (options) => `path: ${options.path}`,
});
