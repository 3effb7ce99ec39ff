import { InvalidRequestError } from '../logical/errors.js';
import { etcdStorage } from './etcd/index.js';
import { fileStorage } from './file/index.js';
import { inmemStorage } from './inmem/index.js';
import { postgresqlStorage } from './postgresql/index.js';
import { sqliteStorage } from './sqlite/index.js';
import type { StorageBackend } from './storage.js';
import type { StorageBlock, StorageHa, StorageType } from './storage-type.js';

/** Every storage type a configuration can name. A new backend is one folder and one line here. */
const STORAGE_TYPES: ReadonlyMap<string, StorageType> = new Map([
  ['inmem', inmemStorage],
  ['sqlite', sqliteStorage],
  ['etcd', etcdStorage],
  ['file', fileStorage],
  ['postgresql', postgresqlStorage],
]);

/**
 * Types of the established server that Ward does not have, with what to use instead: an operator
 * bringing a production configuration learns the way forward from the one message.
 */
const REFUSED_TYPES: ReadonlyMap<string, string> = new Map([
  [
    'raft',
    'storage "raft" is not available in Ward; for several servers sharing replicated storage use storage "etcd" ' +
      'or "postgresql" with ha_enabled = "true". To move the data: save a snapshot on the old server ' +
      '(`operator raft snapshot save <file>`), then `ward operator raft snapshot restore -force <file>` on a Ward ' +
      'server with the new storage (between two Ward stores, `ward operator migrate` also copies everything offline)',
  ],
]);

/** A validated `storage "<type>" { … }` block: plain data, opened by `openStorage`. */
export interface StorageConfig {
  readonly type: string;
  /** What the type's `parse` made of the block. */
  readonly settings: unknown;
}

/** A store a configuration opened, with HA when its settings enable it. */
export interface OpenedStorage {
  backend: StorageBackend;
  ha?: StorageHa;
}

/** The storage type a configuration names; an unknown one is refused, naming the ones there are. */
export function storageType(type: string): StorageType {
  const kind = STORAGE_TYPES.get(type);
  if (kind) return kind;
  const refusal = REFUSED_TYPES.get(type);
  if (refusal) throw new InvalidRequestError(refusal);
  const names = [...STORAGE_TYPES.keys()].map((name) => `"${name}"`).join(', ');
  throw new InvalidRequestError(`unknown storage type "${type}"; use one of ${names}`);
}

/** Validates a block of `type` (its keys already checked against `storageType(type).keys`). */
export function parseStorageBlock(type: string, block: StorageBlock): StorageConfig {
  return { type, settings: storageType(type).parse(block) };
}

/** Opens the store a configuration names. */
export async function openStorage(config: StorageConfig): Promise<OpenedStorage> {
  const kind = storageType(config.type);
  const backend = await kind.create(config.settings);
  return { backend, ha: kind.ha?.(backend, config.settings) };
}

/** `sqlite (path: /var/lib/ward/ward.db)`: how the start banner names the store. */
export function describeStorage(config: StorageConfig): string {
  const where = storageType(config.type).describe(config.settings);
  return where ? `${config.type} (${where})` : config.type;
}
