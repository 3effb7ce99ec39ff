import type { Random } from '@ward/base';
import { type Db, openDatabase } from './database.js';
import { FeatureSetStore } from './feature-sets.js';
import { OrganizationStore } from './organizations.js';
import { SessionStore } from './sessions.js';
import { SubscriptionStore } from './subscriptions.js';
import { TokenStore } from './tokens.js';
import { UserStore } from './users.js';

export { CATALOGUE, FREE_IDENTIFIER, seedCatalogue, TRIAL_IDENTIFIER } from './catalogue.js';
export { appliedMigrations, type Db, openDatabase } from './database.js';
export * from './records.js';
export { sha256 } from './tokens.js';

/** Every table behind one object, plus `transaction` for changes that must land together. */
export interface Store {
  readonly db: Db;
  readonly users: UserStore;
  readonly organizations: OrganizationStore;
  readonly tokens: TokenStore;
  readonly featureSets: FeatureSetStore;
  readonly subscriptions: SubscriptionStore;
  readonly sessions: SessionStore;
  /** Runs `fn` in one SQLite transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T;
  /** Resolves when the database answers a trivial query; rejects otherwise (for `GET /_health`). */
  ping(): Promise<void>;
  close(): void;
}

export function createStore(db: Db, random: Random): Store {
  return {
    db,
    users: new UserStore(db, random),
    organizations: new OrganizationStore(db, random),
    tokens: new TokenStore(db, random),
    featureSets: new FeatureSetStore(db),
    subscriptions: new SubscriptionStore(db),
    sessions: new SessionStore(db),
    transaction: (fn) => db.transaction(fn)(),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    close: () => db.close(),
  };
}

/** Opens the database at `path` and builds the store over it. */
export function openStore(path: string, random: Random): Store {
  return createStore(openDatabase(path), random);
}
