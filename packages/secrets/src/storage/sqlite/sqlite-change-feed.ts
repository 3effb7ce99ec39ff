import Database from 'better-sqlite3';
import type { ChangeFeed, StorageChange } from '../change-feed.js';
import type { SqliteStorage } from './sqlite.js';

/**
 * How often the feed asks SQLite whether another connection committed. `PRAGMA data_version` is
 * answered from the connection's own view of the WAL index (about a microsecond), so polling
 * this often costs nothing measurable; it bounds how stale a standby's caches can be.
 */
const FEED_POLL_MS = 10;

/** Change-log rows read per query, so a standby far behind catches up in slices. */
const BATCH_ROWS = 1_000;

interface ChangeRow {
  revision: number;
  keys: string;
  everything: number;
}

/**
 * The change feed of a `SqliteStorage` shared by several server processes (`workers`): every write
 * appends a row naming its keys to the `changes` table in its own transaction, so a row's revision
 * (its AUTOINCREMENT rowid) is the order in which writes committed, with no gaps. The feed keeps a
 * read-only connection of its own and polls `PRAGMA data_version`, which changes when another
 * connection committed; only then does it read the rows after the last one delivered. When the
 * first row it finds is not the next revision (the log was trimmed past it), or a row is a
 * restore's, it reports `isEverything`.
 *
 * The timer is a real one, not the injected clock: it follows commits that other processes make
 * in real time.
 */
export class SqliteChangeFeed implements ChangeFeed {
  readonly #storage: SqliteStorage;
  #db: Database.Database | undefined;
  #since: Database.Statement<[number, number], ChangeRow> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #dataVersion = -1;
  #delivered = 0;
  #isPolling = false;
  #polled: Promise<void> = Promise.resolve();
  #handler: ((change: StorageChange) => Promise<void>) | undefined;

  constructor(storage: SqliteStorage) {
    this.#storage = storage;
  }

  async start(handler: (change: StorageChange) => Promise<void>): Promise<number> {
    const db = new Database(this.#storage.path, { readonly: true, fileMustExist: true });
    this.#db = db;
    this.#handler = handler;
    this.#since = db.prepare<[number, number], ChangeRow>(
      'SELECT revision, keys, everything FROM changes WHERE revision > ? ORDER BY revision LIMIT ?',
    );
    this.#dataVersion = this.#version();
    this.#delivered = db.prepare<[], number>('SELECT COALESCE(MAX(revision), 0) FROM changes').pluck().get() ?? 0;
    this.#timer = setInterval(() => this.#tick(), FEED_POLL_MS);
    this.#timer.unref();
    return this.#delivered;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#handler = undefined;
    await this.#polled;
    this.#db?.close();
    this.#db = undefined;
  }

  writtenRevision(): number {
    return this.#storage.writtenRevision;
  }

  #version(): number {
    return (this.#db?.pragma('data_version', { simple: true }) as number | undefined) ?? -1;
  }

  /** One poll at a time: a handler still running when the timer fires again delays the next poll. */
  #tick(): void {
    if (this.#isPolling || !this.#db) return;
    const version = this.#version();
    if (version === this.#dataVersion) return;
    this.#dataVersion = version;
    this.#isPolling = true;
    this.#polled = this.#deliverNew().finally(() => {
      this.#isPolling = false;
    });
  }

  async #deliverNew(): Promise<void> {
    for (;;) {
      const since = this.#since;
      if (!since || !this.#handler) return;
      const rows = since.all(this.#delivered, BATCH_ROWS);
      if (rows.length === 0) return;
      if ((rows[0] as ChangeRow).revision !== this.#delivered + 1) {
        // Trimmed past what this process last saw: what changed meanwhile is unknown.
        const last = (rows.at(-1) as ChangeRow).revision;
        await this.#deliver({ revision: last, keys: [], isEverything: true });
        continue;
      }
      for (const row of rows) {
        const isEverything = row.everything === 1;
        const keys = isEverything ? [] : (JSON.parse(row.keys) as string[]);
        await this.#deliver({ revision: row.revision, keys, isEverything });
      }
      if (rows.length < BATCH_ROWS) return;
    }
  }

  async #deliver(change: StorageChange): Promise<void> {
    this.#delivered = change.revision;
    const handler = this.#handler;
    if (!handler) return;
    await handler(change).catch(() => {});
  }
}
