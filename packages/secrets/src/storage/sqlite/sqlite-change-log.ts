import type Database from 'better-sqlite3';

/**
 * The change log of a SQLite file that several server processes share (`workers` > 1): each
 * write appends a row naming its keys, in the write's own transaction, so a row's revision is
 * the write's; a restore appends one row that names everything. The others follow the log
 * (`SqliteChangeFeed`). Kept here, beside the feed that reads it, for both the writer thread and
 * the main thread's restore.
 */

/** How many revisions the change log keeps: a standby further behind than this drops every cache instead. */
const CHANGES_KEPT = 10_000;
/** The log is trimmed every this many groups (in a group's own transaction). */
const TRIM_EVERY_GROUPS = 500;

/**
 * The tables processes sharing the file use: the change log (each write's keys at its revision,
 * `everything` for a restore) and the HA lock's row.
 */
export function createSharedTables(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS changes (
    revision INTEGER PRIMARY KEY AUTOINCREMENT, keys TEXT NOT NULL, everything INTEGER NOT NULL DEFAULT 0)`);
  db.exec(`CREATE TABLE IF NOT EXISTS ha_lock (
    id INTEGER PRIMARY KEY CHECK (id = 1), identity TEXT NOT NULL, value TEXT NOT NULL,
    pid INTEGER NOT NULL, valid_until_ms INTEGER NOT NULL)`);
}

/** Records, inside the restore's transaction, that every key may have changed: every process drops every cache. */
export function logRestore(db: Database.Database): void {
  db.exec(`INSERT INTO main.changes (keys, everything) VALUES ('[]', 1)`);
}

/** The writer thread's side of the log: a row per write, trimmed now and then. */
export class ChangeLogWriter {
  readonly #insert: Database.Statement<[string]>;
  readonly #trim: Database.Statement<[number]>;
  #groups = 0;

  constructor(db: Database.Database) {
    this.#insert = db.prepare<[string]>('INSERT INTO changes (keys) VALUES (?)');
    this.#trim = db.prepare<[number]>('DELETE FROM changes WHERE revision <= (SELECT MAX(revision) FROM changes) - ?');
  }

  /** Appends the row of one write (call inside its transaction); the write's revision. */
  record(keys: readonly string[]): number {
    return Number(this.#insert.run(JSON.stringify(keys)).lastInsertRowid);
  }

  /** Called once per committed group (inside its transaction): trims the log every `TRIM_EVERY_GROUPS`. */
  afterGroup(): void {
    if (++this.#groups % TRIM_EVERY_GROUPS === 0) this.#trim.run(CHANGES_KEPT);
  }
}
