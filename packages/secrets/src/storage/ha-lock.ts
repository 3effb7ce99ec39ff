/** A lock only one server holds at a time (an etcd lease-backed key, a PostgreSQL row); the storage backend that several servers share provides it. */
export interface HaLock {
  /** Resolves once this server holds the lock; rejects when released meanwhile or when storage fails. */
  acquire(): Promise<void>;
  /** What the holder advertised, or `undefined` when nobody holds the lock. */
  holder(): Promise<string | undefined>;
  /** Called if the lock is lost while held (storage unreachable for longer than the lock's TTL). */
  onLost(handler: () => void): void;
  /** Steps down or stops waiting; the lock is free for another server at once. */
  release(): Promise<void>;
}
