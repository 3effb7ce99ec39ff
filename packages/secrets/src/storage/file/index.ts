import { BlockValues } from '../block-values.js';
import { defineStorage } from '../storage-type.js';
import { FileStorage, type FileStorageOptions } from './file.js';

export { FileStorage, type FileStorageOptions } from './file.js';

/** `storage "file" { path = "…" }`: one file per key under a directory, for a single server. */
export const fileStorage = defineStorage({
  keys: ['path'],
  parse: (block): FileStorageOptions => ({ path: new BlockValues('file', block).requiredText('path') }),
  create: (options) => FileStorage.open(options),
  describe: (options) => `path: ${options.path}`,
});
