import type { Clock } from '@ward/base';

interface Entry {
  body: Buffer;
  stamp: string;
  validUntilMs: number;
}

/** Enough for every token × path a busy deployment reads; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

/**
 * Whole 200 responses to API reads, keyed by the exact Authorization header and URL. An entry
 * is served only while the database's change stamp (SQLite: any write by this process, any
 * commit by another on the same file) is the one the body was computed under, so a plan
 * change, a new membership or a revoked token shows at once. Time matters only for tokens, so
 * each entry also ends when its token expires or is due for its `last-used-at` update.
 */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly changeStamp: () => string,
    private readonly clock: Clock,
  ) {}

  get(key: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntilMs <= this.clock.now() || entry.stamp !== this.changeStamp()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  /** The database's state now: take it before computing a body, and hand it to `set`. */
  stamp(): string {
    return this.changeStamp();
  }

  /**
   * Remembers `body`, computed from the database as it was at `stampBefore`. Reads are async, so
   * other requests may write while a body is computed: then the body may be out of date, and is
   * not kept.
   */
  set(key: string, body: Buffer, validUntilMs: number, stampBefore: string): void {
    if (this.changeStamp() !== stampBefore) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { body, stamp: stampBefore, validUntilMs });
  }
}
