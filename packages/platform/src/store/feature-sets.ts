import type { FeatureSetRow } from './records.js';
import type { Sql } from './sql.js';

/**
 * The plan catalogue. It changes only through `seedCatalogue` (at start-up), so it is read from the
 * database once (`load`) and then served from memory: every subscription read needs its
 * feature set, and this keeps a query per request off the hot path.
 */
export class FeatureSetStore {
  #rows: readonly FeatureSetRow[] = [];
  #byId = new Map<string, FeatureSetRow>();

  /** Reads the catalogue into memory; call after seeding, before serving. */
  async load(sql: Sql): Promise<void> {
    const rows = await sql.all<FeatureSetRow>('SELECT * FROM feature_sets ORDER BY position, id');
    // Frozen: callers share these objects, so none may change what the others see.
    for (const row of rows) Object.freeze(row);
    this.#rows = rows;
    this.#byId = new Map(rows.map((fs) => [fs.id, fs]));
  }

  /** The plans still offered, in catalogue order. */
  offered(): FeatureSetRow[] {
    return this.#rows.filter((fs) => fs.is_offered === 1);
  }

  get(id: string): FeatureSetRow | undefined {
    return this.#byId.get(id);
  }

  byIdentifier(identifier: string): FeatureSetRow | undefined {
    return this.#rows.find((fs) => fs.identifier === identifier);
  }
}
