import BetterSqlite3 from 'better-sqlite3';
import { migrations } from './migrations.js';
import type { Database, Sql, SqlValue } from './sql.js';

type Connection = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<SqlValue[]>;

/**
 * SQLite through better-sqlite3, behind the async `Database` interface. The driver is
 * synchronous, so each statement runs at once; what needs care is a transaction, which spans
 * awaits: while one is open, statements from outside it wait for it to end (otherwise another
 * request's write would land inside it, and be rolled back with it).
 */
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite';
  readonly #db: Connection;
  /** Prepared once per statement text: preparing costs more than running. */
  readonly #statements = new Map<string, Statement>();
  /**
   * Set while a transaction is open. Every statement from outside checks it in the same tick
   * as it runs (no await in between), so none can slip into another's transaction.
   */
  #openTransaction: Promise<void> | undefined;
  readonly #totalChanges: BetterSqlite3.Statement<[], number>;
  readonly #dataVersion: BetterSqlite3.Statement<[], number>;

  /** Opens (creating if needed) the file at `path` (`:memory:` for a throwaway one) and migrates it. */
  constructor(path: string) {
    this.#db = new BetterSqlite3(path);
    // WAL lets readers go on while the billing page writes; NORMAL is durable across process
    // crashes, which is the failure we guard against (not power loss mid-write).
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
    this.#migrate();
    this.#totalChanges = this.#db.prepare<[], number>('SELECT total_changes()').pluck();
    this.#dataVersion = this.#db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * `total_changes()` counts every row this connection has written (rolled-back writes too);
   * `PRAGMA data_version` changes when another connection commits to the same file.
   */
  readonly changeStamp = (): string => `${this.#totalChanges.get()}:${this.#dataVersion.get()}`;

  async all<T>(text: string, params: readonly SqlValue[] = []): Promise<T[]> {
    while (this.#openTransaction) await this.#openTransaction;
    return this.#statement(text).all(...params) as T[];
  }

  async get<T>(text: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    while (this.#openTransaction) await this.#openTransaction;
    return this.#statement(text).get(...params) as T | undefined;
  }

  async run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    while (this.#openTransaction) await this.#openTransaction;
    return this.#statement(text).run(...params).changes;
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    while (this.#openTransaction) await this.#openTransaction;
    let end = () => {};
    this.#openTransaction = new Promise<void>((resolve) => {
      end = resolve;
    });
    const tx: Sql = {
      dialect: 'sqlite',
      all: async <R>(text: string, params: readonly SqlValue[] = []) => this.#statement(text).all(...params) as R[],
      get: async <R>(text: string, params: readonly SqlValue[] = []) =>
        this.#statement(text).get(...params) as R | undefined,
      run: async (text, params = []) => this.#statement(text).run(...params).changes,
    };
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(tx);
        this.#db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.#openTransaction = undefined;
      end();
    }
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #statement(text: string): Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#db.prepare<SqlValue[]>(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  #migrate(): void {
    this.#db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)');
    const applied = new Set(
      this.#db
        .prepare('SELECT version FROM schema_migrations')
        .pluck()
        .all()
        .map((v) => Number(v)),
    );
    for (const m of migrations('sqlite')) {
      if (applied.has(m.version)) continue;
      this.#db.transaction(() => {
        this.#db.exec(m.sql);
        this.#db.prepare('INSERT INTO schema_migrations (version) VALUES (?)').run(m.version);
      })();
    }
  }
}
