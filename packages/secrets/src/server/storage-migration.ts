import { InvalidRequestError } from '../logical/errors.js';
import {
  openStorage,
  parseStorageBlock,
  type StorageBackend,
  type StorageConfig,
  type StorageEntry,
  storageType,
} from '../storage/index.js';
import { labelled, readConfigFile } from './config.js';

/** A migration's configuration: where the entries come from and where they go. */
export interface MigrationConfig {
  source: StorageConfig;
  destination: StorageConfig;
}

/**
 * Reads the file `ward operator migrate -config` names, as established: one `storage_source` and one
 * `storage_destination` block, each a storage type and its keys as in a server's `storage` block.
 */
export async function loadMigrationConfig(file: string): Promise<MigrationConfig> {
  const { doc } = await readConfigFile(file);
  for (const key of Object.keys(doc)) {
    if (key !== 'storage_source' && key !== 'storage_destination') {
      throw new InvalidRequestError(
        `${file}: unknown key "${key}"; a migration takes storage_source and storage_destination`,
      );
    }
  }
  return {
    source: oneBlock(doc.storage_source, 'storage_source'),
    destination: oneBlock(doc.storage_destination, 'storage_destination'),
  };
}

function oneBlock(value: unknown, what: string): StorageConfig {
  const found = labelled(value, what);
  const [block] = found;
  if (found.length !== 1 || !block) throw new InvalidRequestError(`exactly one ${what} block is required`);
  const [type, body] = block;
  const allowed = new Set(storageType(type).keys);
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) throw new InvalidRequestError(`unknown key "${key}" in ${what} "${type}"`);
  }
  return parseStorageBlock(type, body);
}

/**
 * Copies every entry of the source into the (empty) destination, offline: no server may run on
 * either meanwhile. The entries are copied as stored (still encrypted by the barrier), so the
 * destination unseals with the source's keys. Returns how many entries were copied.
 */
export async function migrateStorage(config: MigrationConfig, options: { startKey?: string } = {}): Promise<number> {
  const source = (await openStorage(config.source)).backend;
  const destination = await openStorage(config.destination).then(
    (opened) => opened.backend,
    async (err) => {
      await source.close();
      throw err;
    },
  );
  try {
    if ((await destination.list('')).length > 0) {
      throw new InvalidRequestError(
        `storage_destination "${config.destination.type}" is not empty; migrate into an empty store`,
      );
    }
    return await copyEntries(source, destination, options.startKey ?? '');
  } finally {
    await Promise.allSettled([source.close(), destination.close()]);
  }
}

async function copyEntries(source: StorageBackend, destination: StorageBackend, startKey: string): Promise<number> {
  const snapshot = await source.openSnapshot();
  let copied = 0;
  async function* from(): AsyncGenerator<StorageEntry> {
    for await (const entry of snapshot.entries()) {
      if (entry.key < startKey) continue;
      copied++;
      yield entry;
    }
  }
  try {
    await destination.replaceAll(from());
  } finally {
    await snapshot.close();
  }
  return copied;
}
