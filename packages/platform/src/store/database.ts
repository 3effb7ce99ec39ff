import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the SQLite database at `path` (`:memory:` for a throwaway one)
 * and applies the migrations it has not seen yet, each in its own transaction.
 */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  // WAL lets readers go on while the billing page writes; NORMAL is durable across process
  // crashes, which is the failure we guard against (not power loss mid-write).
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)');
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  );
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version) VALUES (?)').run(m.version);
    })();
  }
}

/** Versions applied to `db`, oldest first. */
export function appliedMigrations(db: Db): number[] {
  return db
    .prepare('SELECT version FROM schema_migrations ORDER BY version')
    .pluck()
    .all()
    .map((v) => Number(v));
}
