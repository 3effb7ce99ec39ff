/** One change inside an atomic batch. */
export type StorageOperation = { op: 'put'; key: string; value: Uint8Array } | { op: 'delete'; key: string };

/** One stored entry, as a snapshot carries it: the value still encrypted by the barrier. */
export interface StorageEntry {
  key: string;
  value: Uint8Array;
}

/**
 * Every entry of a store as of the moment it was opened. Writes made afterwards are not
 * seen, and entries are read one at a time, so a large store is never held in memory.
 */
export interface StorageSnapshot {
  /** How many entries the snapshot holds. */
  readonly count: number;
  /** The entries in key order. Iterate once; the snapshot is closed when iteration ends. */
  entries(): AsyncIterable<StorageEntry>;
  /** Releases the view (a read transaction); harmless after iteration ended or twice. */
  close(): Promise<void>;
}

/**
 * A plain key/value store. Untrusted: everything written here by the core has
 * already passed through the barrier, except the few bootstrap entries the seal
 * keeps under `core/` (seal configuration, the encrypted root key).
 *
 * Keys are `/`-separated paths without a leading `/`. A value is opaque bytes.
 */
export interface StorageBackend {
  /** The value at `key`, or `undefined` when there is none. Never shares a buffer with the store. */
  get(key: string): Promise<Uint8Array | undefined>;
  /**
   * Stores `value` at `key`, replacing any value. Durable when the promise resolves. A value given
   * to `put` or `transaction` is only read, never changed or transferred: the barrier's cache keeps it.
   */
  put(key: string, value: Uint8Array): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Direct children of `prefix` (which is `''` or ends in `/`), sorted, without the prefix.
   * A child that has children of its own is listed once, ending in `/`
   * (keys `a/b` and `a/c/d` under `a/` list as `['b', 'c/']`).
   */
  list(prefix: string): Promise<string[]>;
  /** Applies every operation or none, in order. Durable when the promise resolves. */
  transaction(operations: StorageOperation[]): Promise<void>;
  /**
   * Optional: whether the value at `key` is now exactly the bytes `value` (false when there is none),
   * answered without copying the stored value out. The barrier asks it to check that a value it
   * cached is still the one stored; without it, the barrier reads the value with `get` and compares.
   */
  holds?(key: string, value: Uint8Array): Promise<boolean>;
  /** Opens a consistent view of every entry as of now; writes may continue while it is read. */
  openSnapshot(): Promise<StorageSnapshot>;
  /**
   * Replaces the whole store with `entries`: afterwards it holds exactly those, and a failure
   * (a bad entry, a throwing source, a crash) at any point leaves the old store untouched.
   * Entries are staged as they arrive, so a large restore is not held in memory either.
   */
  replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void>;
  /** Releases files and handles; the backend is unusable afterwards. */
  close(): Promise<void>;
}
