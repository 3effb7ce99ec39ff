export type Dialect = 'sqlite' | 'postgres';

/** A value bound to a `?` placeholder. */
export type SqlValue = string | number | null;

/**
 * The little the repositories need from a database, the same for SQLite and PostgreSQL.
 * Statements use `?` placeholders (PostgreSQL's driver gets `$1, $2, …`). Integers, including
 * PostgreSQL's BIGINT millisecond times and counts, come back as JS numbers.
 */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all<T>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(text: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement that returns no rows; resolves to how many rows it changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
}

/** A connection (SQLite) or pool (PostgreSQL) with transactions. */
export interface Database extends Sql {
  /**
   * Runs `fn` in one transaction on `tx`: its writes all land (commit) or none do (rollback, and
   * the error is rethrown). SQLite takes the write lock at the start (BEGIN IMMEDIATE), so two
   * processes on one file never interleave; PostgreSQL runs it at READ COMMITTED, and callers
   * lock the rows they change (`SELECT … FOR UPDATE`). Inside `fn`, use only `tx`.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * SQLite only: a value that changes whenever anything is written to the database, by this
   * process or another one on the same file (for the response cache). PostgreSQL gives none.
   */
  readonly changeStamp: (() => string) | undefined;
  close(): Promise<void>;
}

/** `INSERT INTO table (a, b) VALUES (?, ?)` for a row whose keys are our own column names. */
export function insertStatement(table: string, row: Record<string, SqlValue>): [string, SqlValue[]] {
  const columns = Object.keys(row);
  return [
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    columns.map((c) => row[c] ?? null),
  ];
}
