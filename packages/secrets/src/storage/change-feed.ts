/**
 * One committed change to the shared store, as another server process sees it: which keys
 * changed (without their values, which may be stale by the time they arrive) and at what
 * revision of the store.
 */
export interface StorageChange {
  /** The store's revision after this change; changes arrive in increasing revision order. */
  revision: number;
  /** Storage keys put or deleted (as the `StorageBackend` names them, without any prefix). */
  keys: string[];
  /**
   * The feed lost track of what changed (history compacted while disconnected, a watch
   * cancelled): every cache must be dropped, and `keys` is empty.
   */
  isEverything: boolean;
}

/**
 * Tells a server process what other processes changed in the store it shares with them, so
 * each cache it keeps (policies, mounts, tokens, keyring, decrypted values …) can drop what
 * went stale. Storage-neutral: etcd implements it with a watch; a store shared by processes
 * on one machine (SQLite) can implement it with a change log.
 */
export interface ChangeFeed {
  /**
   * Starts delivering changes committed after the returned revision, which is the store's
   * revision when the feed started: anything read from the store afterwards is at least
   * that fresh. `handler` is called with one change at a time, the next only once the
   * previous call settled (a rejection is the handler's own business, never retried).
   * Not called twice without a `stop` between; after `stop` it starts afresh.
   */
  start(handler: (change: StorageChange) => Promise<void>): Promise<number>;
  /** Stops delivering; a change being handled finishes first. Harmless twice or before start. */
  stop(): Promise<void>;
  /**
   * The revision this process's own latest write reached (0 before any): the index a client
   * hands another server to read its own writes there.
   */
  writtenRevision(): number;
}
