/** One key name's records, in the order they were written: storage keys and when each expires. */
interface Queue {
  keys: string[];
  expiresAtMs: number[];
  /** Index of the oldest record not yet taken. */
  head: number;
}

/** Taken entries are cut off the front once there are this many and they are half the queue. */
const COMPACT_AFTER = 1024;

/**
 * The replay records this server wrote and has not swept yet, oldest first per key name: the
 * worklist of the incremental sweep, which then neither lists storage nor reads records it did
 * not write. Records of one key are written with one time to live, so write order is expiry
 * order; after a key is rewritten with a shorter period a record may wait behind an older one,
 * and is swept at most that older one's time to live late.
 */
export class WrittenRecords {
  readonly #byName = new Map<string, Queue>();

  add(name: string, key: string, expiresAtMs: number): void {
    let queue = this.#byName.get(name);
    if (queue === undefined) {
      queue = { keys: [], expiresAtMs: [], head: 0 };
      this.#byName.set(name, queue);
    }
    queue.keys.push(key);
    queue.expiresAtMs.push(expiresAtMs);
  }

  /** The key names with records waiting. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** Removes and returns the storage keys of `name`'s records whose time is up at `nowMs`, oldest first. */
  takeExpired(name: string, nowMs: number): string[] {
    const queue = this.#byName.get(name);
    if (queue === undefined) return [];
    const start = queue.head;
    while (queue.head < queue.keys.length && (queue.expiresAtMs[queue.head] as number) <= nowMs) queue.head++;
    const taken = queue.keys.slice(start, queue.head);
    if (queue.head === queue.keys.length) this.#byName.delete(name);
    else if (queue.head >= COMPACT_AFTER && queue.head * 2 >= queue.keys.length) {
      queue.keys.splice(0, queue.head);
      queue.expiresAtMs.splice(0, queue.head);
      queue.head = 0;
    }
    return taken;
  }
}
