/** A snapshot stored by a target. */
export interface StoredSnapshot {
  /** Object or file name, without the target's prefix. */
  name: string;
  /** Bytes. */
  size: number;
}

/**
 * Where automated snapshots go: a directory, a bucket, a container. One implementation per
 * provider; each runs the shared suite in `snapshot-target.case.ts`.
 */
export interface SnapshotTarget {
  /**
   * Streams `body` to a new object `name`; resolves once it is complete, with its URL and size.
   * A failure part-way leaves no object behind.
   */
  put(name: string, body: AsyncIterable<Uint8Array>): Promise<{ url: string; size: number }>;
  /** The stored objects whose names start with `namePrefix`, in name order. */
  list(namePrefix: string): Promise<StoredSnapshot[]>;
  /** Removes an object; a missing one is not an error. */
  delete(name: string): Promise<void>;
  /** Releases the client's connections; called once an attempt is over (a target serves one attempt). */
  close?(): void;
}
