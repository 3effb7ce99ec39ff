import type { Clock, Random } from '@ward/base';
import type { ConnectionTarget } from './connection-url.js';

/** How many connections a config's pool holds, and for how long (the config's fields). */
export interface PoolLimits {
  maxOpen: number;
  maxIdle: number;
  /** 0: no limit. */
  maxLifetimeSeconds: number;
}

/**
 * A pool of connections to one configured database, as the engine uses it. Every call takes a
 * connection from the pool and gives it back; `close` ends them all (after running calls finish).
 */
export interface SqlSession {
  /** Runs `statements` in order in one transaction: all take effect, or (on the first failure) none. */
  transaction(statements: readonly string[]): Promise<void>;
  /** Runs each statement on its own, past failures; resolves with the failures' messages. */
  each(statements: readonly string[]): Promise<string[]>;
  /** Whether a login named `username` exists. */
  userExists(username: string): Promise<boolean>;
  /**
   * The established default revocation, for roles without `revocation_statements`: the user's
   * privileges go, then the user (PostgreSQL: what it was granted in each schema and on the
   * database; MySQL: `REVOKE ALL … DROP USER` at host `%`). A missing user is not an error.
   */
  dropUser(username: string): Promise<void>;
  /** Opens a connection and runs a trivial query: fails when the database cannot be reached or refuses the login. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The clock (connection ages) and randomness (retry jitter) a session uses. */
export interface SessionDeps {
  clock: Clock;
  random: Random;
}

/** Opens a session lazily: no connection is made until the first call. */
export type SessionOpener = (target: ConnectionTarget, limits: PoolLimits, deps: SessionDeps) => SqlSession;
