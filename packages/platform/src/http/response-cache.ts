import type { Clock } from '@ward/base';
import type { Db } from '../store/index.js';

interface Entry {
  body: Buffer;
  totalChanges: number;
  dataVersion: number;
  validUntilMs: number;
}

/** Enough for every token × path a busy deployment reads; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

/**
 * Whole 200 responses to API reads, keyed by the exact Authorization header and URL. An entry
 * is served only while the database is unchanged since it was made, so a plan change, a new
 * membership or a revoked token shows at once:
 * - `total_changes()` counts every row this connection (this process) has written, including
 *   writes rolled back, so any write at all invalidates every entry;
 * - `PRAGMA data_version` changes when another connection (another process on the same
 *   file) commits.
 * Time matters only for tokens, so each entry also ends when its token expires or is due for
 * its `last-used-at` update.
 */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  readonly #totalChanges;
  readonly #dataVersionStatement;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.#totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.#dataVersionStatement = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  get(key: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (
      entry.validUntilMs <= this.clock.now() ||
      entry.totalChanges !== this.#totalChanges.get() ||
      entry.dataVersion !== this.#dataVersion()
    ) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  /**
   * Remembers `body`. Call it right after computing the response, before anything else writes,
   * so the recorded database state is the one the body was computed from.
   */
  set(key: string, body: Buffer, validUntilMs: number): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, {
      body,
      totalChanges: this.#totalChanges.get() ?? 0,
      dataVersion: this.#dataVersion(),
      validUntilMs,
    });
  }

  #dataVersion(): number {
    return this.#dataVersionStatement.get() ?? 0;
  }
}
