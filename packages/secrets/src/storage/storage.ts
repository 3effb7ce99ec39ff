/** One change inside an atomic batch. */
export type StorageOperation = { op: 'put'; key: string; value: Uint8Array } | { op: 'delete'; key: string };

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
  /** Stores `value` at `key`, replacing any value. Durable when the promise resolves. */
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
  /** Releases files and handles; the backend is unusable afterwards. */
  close(): Promise<void>;
}
