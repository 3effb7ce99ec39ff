/** The store: tables of users, organizations, tokens, subscriptions and feature sets on SQLite or PostgreSQL. @module */
import type { Random } from '@ward/base';
import { FeatureSetStore } from './feature-sets.js';
import { OrganizationStore } from './organizations.js';
import { PostgresDatabase } from './postgres-database.js';
import { SessionStore } from './sessions.js';
import type { Database, Sql } from './sql.js';
import { SqliteDatabase } from './sqlite-database.js';
import { SubscriptionStore } from './subscriptions.js';
import { TokenStore } from './tokens.js';
import { UserStore } from './users.js';

export { CATALOGUE, FREE_IDENTIFIER, seedCatalogue, TRIAL_IDENTIFIER, TRIAL_LENGTH_MS } from './catalogue.js';
export type { MembershipRow } from './organizations.js';
export { createDatabaseRateLimiter } from './rate-limits.js';
export * from './records.js';
export type { Database, Dialect, Sql } from './sql.js';
export { sha256 } from './tokens.js';

/** The tables, as seen through one connection or one transaction. */
export interface Tables {
  readonly users: UserStore;
  readonly organizations: OrganizationStore;
  readonly tokens: TokenStore;
  /** The plan catalogue, in memory (see `seedCatalogue`); the same object inside transactions. */
  readonly featureSets: FeatureSetStore;
  readonly subscriptions: SubscriptionStore;
  readonly sessions: SessionStore;
}

/** Every table behind one object, plus `transaction` for changes that must land together. */
export interface Store extends Tables {
  readonly database: Database;
  /**
   * Runs `fn` in one transaction: all of its writes land, or none. Inside, use only `tx`: on
   * SQLite, a statement through the store itself would wait for the transaction to end.
   */
  transaction<T>(fn: (tx: Tables) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query; rejects otherwise (for `GET /_health`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

function tables(sql: Sql, random: Random, featureSets: FeatureSetStore): Tables {
  return {
    users: new UserStore(sql, random),
    organizations: new OrganizationStore(sql, random),
    tokens: new TokenStore(sql, random),
    featureSets,
    subscriptions: new SubscriptionStore(sql),
    sessions: new SessionStore(sql),
  };
}

export function createStore(database: Database, random: Random): Store {
  const featureSets = new FeatureSetStore();
  return {
    database,
    ...tables(database, random, featureSets),
    transaction: (fn) => database.transaction((tx) => fn(tables(tx, random, featureSets))),
    ping: async () => {
      await database.get('SELECT 1 AS one');
    },
    close: () => database.close(),
  };
}

/** Where the data lives: an SQLite file (`:memory:` for a throwaway one) or a PostgreSQL URL. */
export type StoreLocation = { sqlitePath: string } | { postgresUrl: string };

/**
 * Opens the database (migrating it) and builds the store over it. Call `seedCatalogue` before
 * serving. `onIdleError` hears of PostgreSQL connections that fail while pooled.
 */
export async function openStore(
  location: StoreLocation,
  random: Random,
  onIdleError: (err: Error) => void = () => {},
): Promise<Store> {
  const database =
    'sqlitePath' in location
      ? new SqliteDatabase(location.sqlitePath)
      : await PostgresDatabase.open(location.postgresUrl, onIdleError);
  return createStore(database, random);
}

/** Whether `err` is the database refusing a duplicate in a unique column or index. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // better-sqlite3's extended result code; PostgreSQL's SQLSTATE unique_violation.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** Versions applied to the database, oldest first. */
export async function appliedMigrations(sql: Sql): Promise<number[]> {
  const rows = await sql.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => Number(r.version));
}
