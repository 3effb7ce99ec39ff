import type { ChangeFeed } from './change-feed.js';
import type { HaLock } from './ha-lock.js';
import type { StorageBackend } from './storage.js';

/** A `storage "<type>" { … }` block as the configuration parser hands it over (HCL read as JSON). */
export type StorageBlock = Readonly<Record<string, unknown>>;

/** What a storage that several servers share gives them for HA: the lock they campaign for and its change feed. */
export interface StorageHa {
  /** A fresh lock advertising `value` (each campaign takes a new one). */
  newLock(value: string): HaLock;
  /** What the other servers change in the shared store: lets standbys serve reads (performance standbys). */
  feed: ChangeFeed;
}

/**
 * One kind of storage a configuration can name: everything Ward knows about it, in its own folder.
 * `S` is its validated settings; `B` the backend it opens (so `ha` can reach the backend's client).
 * Adding a kind is one folder exporting one of these and one line in `registry.ts`.
 */
export interface StorageType<S = unknown, B extends StorageBackend = StorageBackend> {
  /** The keys its block may hold; the configuration refuses any other, naming it. */
  readonly keys: readonly string[];
  /** Validates a block whose keys are all in `keys`; throws an `InvalidRequestError` naming the key at fault. */
  parse(block: StorageBlock): S;
  /**
   * Opens the store (reading any files the settings name). A store that needs a connection or a
   * repair first resolves once it can be used, and rejects with a `StorageUnusableError` saying
   * why it cannot (an unreachable database), so the server stops at start with that one line.
   */
  create(settings: S): B | Promise<B>;
  /** What the start banner shows after the type, `path: /var/lib/ward` say; `undefined` for nothing. */
  describe(settings: S): string | undefined;
  /** HA on this store, when the settings enable it (`ha_enabled`); absent for a kind that has none. */
  ha?(backend: B, settings: S): StorageHa | undefined;
}

/**
 * Erases a kind's settings type so kinds can share one table. Safe because the registry only hands
 * `create`, `describe` and `ha` settings that this kind's own `parse` produced.
 */
export function defineStorage<S, B extends StorageBackend>(kind: StorageType<S, B>): StorageType {
  return kind as unknown as StorageType;
}
