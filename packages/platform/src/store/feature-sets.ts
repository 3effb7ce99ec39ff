import type { Db } from './database.js';
import type { FeatureSetRow } from './records.js';

/**
 * The plan catalogue. It changes only through `seed` (at start-up), so it is read from the
 * database once and then served from memory: every subscription read needs its feature set,
 * and this keeps a query per request off the hot path.
 */
export class FeatureSetStore {
  #rows: FeatureSetRow[] | undefined;
  #byId: Map<string, FeatureSetRow> | undefined;

  constructor(private readonly db: Db) {}

  /** Inserts the rows that are missing (existing ids are left as they are), in one transaction. */
  seed(rows: readonly FeatureSetRow[]): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const insert = this.db.prepare(
      `INSERT INTO feature_sets (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
       ON CONFLICT(id) DO NOTHING`,
    );
    this.db.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
    this.#rows = undefined;
    this.#byId = undefined;
  }

  /** The plans still offered, in catalogue order. */
  offered(): FeatureSetRow[] {
    return this.#all().filter((fs) => fs.is_offered === 1);
  }

  get(id: string): FeatureSetRow | undefined {
    this.#all();
    return this.#byId?.get(id);
  }

  byIdentifier(identifier: string): FeatureSetRow | undefined {
    return this.#all().find((fs) => fs.identifier === identifier);
  }

  #all(): FeatureSetRow[] {
    if (!this.#rows) {
      this.#rows = this.db.prepare<[], FeatureSetRow>('SELECT * FROM feature_sets ORDER BY position, id').all();
      // Frozen: callers share these objects, so none may change what the others see.
      for (const row of this.#rows) Object.freeze(row);
      this.#byId = new Map(this.#rows.map((fs) => [fs.id, fs]));
    }
    return this.#rows;
  }
}
