import pg from 'pg';
import { migrations } from './migrations.js';
import type { Database, Sql, SqlValue } from './sql.js';

/** PostgreSQL's type id of BIGINT (int8), which the driver hands back as a string by default. */
const INT8_OID = 20;

/** Taken (per transaction) while migrating, so two processes starting at once do not both migrate. */
const MIGRATION_LOCK_ID = 0x77617264; // "ward"

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * PostgreSQL through a `pg` connection pool. Times and counts are BIGINT, read back as numbers
 * (milliseconds since the epoch stay far below 2^53).
 */
export class PostgresDatabase implements Database {
  readonly dialect = 'postgres';
  readonly changeStamp = undefined;
  readonly #pool: pg.Pool;
  /** `?` placeholders rewritten to `$1, $2, …`, once per statement text. */
  readonly #texts = new Map<string, string>();

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /**
   * Connects to `url` (`postgres://user:password@host:port/database`), applies the migrations
   * the database has not seen, and resolves once it is ready. `onIdleError` hears of a pooled
   * connection that failed while idle (the pool replaces it).
   */
  static async open(url: string, onIdleError: (err: Error) => void): Promise<PostgresDatabase> {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // An unreachable server fails a request (or the start) instead of hanging it.
      connectionTimeoutMillis: 10_000,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
      },
    });
    pool.on('error', onIdleError);
    const db = new PostgresDatabase(pool);
    try {
      await db.transaction((tx) => migrate(tx));
    } catch (err) {
      await pool.end();
      throw err;
    }
    return db;
  }

  all<T>(text: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.#all(this.#pool, text, params);
  }

  async get<T>(text: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.#all<T>(this.#pool, text, params))[0];
  }

  async run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.#pool.query(this.#text(text), params as SqlValue[])).rowCount ?? 0;
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    const tx: Sql = {
      dialect: 'postgres',
      all: (text, params = []) => this.#all(client, text, params),
      get: async <R>(text: string, params: readonly SqlValue[] = []) => (await this.#all<R>(client, text, params))[0],
      run: async (text, params = []) => (await client.query(this.#text(text), params as SqlValue[])).rowCount ?? 0,
    };
    let isBroken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection itself failed: it must not go back to the pool.
        isBroken = true;
      }
      throw err;
    } finally {
      client.release(isBroken);
    }
  }

  close(): Promise<void> {
    return this.#pool.end();
  }

  async #all<T>(on: Queryable, text: string, params: readonly SqlValue[]): Promise<T[]> {
    return (await on.query(this.#text(text), params as SqlValue[])).rows as T[];
  }

  #text(text: string): string {
    let converted = this.#texts.get(text);
    if (converted === undefined) {
      let n = 0;
      converted = text.replace(/\?/g, () => `$${++n}`);
      this.#texts.set(text, converted);
    }
    return converted;
  }
}

async function migrate(tx: Sql): Promise<void> {
  await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK_ID]);
  await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)');
  const applied = new Set(
    (await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
  );
  for (const m of migrations('postgres')) {
    if (applied.has(m.version)) continue;
    for (const statement of m.sql.split(/;\s*\n/).filter((s) => s.trim() !== '')) await tx.run(statement);
    await tx.run('INSERT INTO schema_migrations (version) VALUES (?)', [m.version]);
  }
}
