import type { Db } from './database.js';
import type { FeatureSetRow } from './records.js';

export class FeatureSetStore {
  readonly #offered;
  readonly #byId;
  readonly #byIdentifier;

  constructor(db: Db) {
    this.#offered = db.prepare<[], FeatureSetRow>(
      'SELECT * FROM feature_sets WHERE is_offered = 1 ORDER BY position, id',
    );
    this.#byId = db.prepare<[string], FeatureSetRow>('SELECT * FROM feature_sets WHERE id = ?');
    this.#byIdentifier = db.prepare<[string], FeatureSetRow>('SELECT * FROM feature_sets WHERE identifier = ?');
  }

  /** The plans still offered, in catalogue order. */
  offered(): FeatureSetRow[] {
    return this.#offered.all();
  }

  get(id: string): FeatureSetRow | undefined {
    return this.#byId.get(id);
  }

  byIdentifier(identifier: string): FeatureSetRow | undefined {
    return this.#byIdentifier.get(identifier);
  }
}
