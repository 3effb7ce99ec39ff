import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InternalError } from '../logical/errors.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from './storage.js';

export interface SqliteStorageOptions {
  /** The database file; its directory is created (mode 0700) when missing. */
  path: string;
}

/** How long a write waits for another process holding the file's write lock before failing. */
const BUSY_TIMEOUT_MS = 5_000;

/** Rows staged per transaction during a restore: few enough to stay small, many enough to be fast. */
const RESTORE_BATCH = 1_000;

/**
 * The embedded default: one SQLite file, one table. better-sqlite3 is synchronous, so
 * each method does its work before its promise settles, and nothing interleaves inside one call.
 */
export class SqliteStorage implements StorageBackend {
  readonly #path: string;
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string], Buffer>;
  readonly #put: Database.Statement<[string, Uint8Array]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #keysFrom: Database.Statement<[string], string>;
  readonly #apply: (operations: StorageOperation[]) => void;
  /** Names each restore's staging table, so two restores on this connection never share one. */
  #restoreCount = 0;

  constructor(options: SqliteStorageOptions) {
    this.#path = options.path;
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    // Create the file ourselves so it is never readable by others, not even for a moment;
    // SQLite gives its -wal and -shm files the mode of the database file.
    closeSync(openSync(options.path, 'a', 0o600));
    chmodSync(options.path, 0o600);

    this.#db = new Database(options.path, { timeout: BUSY_TIMEOUT_MS });
    this.#db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL may lose the last commits on power loss; FULL syncs the WAL on
    // every commit, so a write is on disk before its promise resolves.
    this.#db.pragma('synchronous = FULL');
    this.#db.exec('CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID');

    this.#get = this.#db.prepare<[string], Buffer>('SELECT value FROM entries WHERE key = ?').pluck();
    this.#put = this.#db.prepare<[string, Uint8Array]>(
      'INSERT INTO entries (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.#delete = this.#db.prepare<[string]>('DELETE FROM entries WHERE key = ?');
    // Text keys compare as UTF-8 bytes (BINARY collation), so every key with a given prefix
    // sits in one contiguous run of the primary-key index starting at the prefix itself.
    this.#keysFrom = this.#db.prepare<[string], string>('SELECT key FROM entries WHERE key >= ? ORDER BY key').pluck();
    this.#apply = this.#db.transaction((operations: StorageOperation[]) => {
      // Checked inside the transaction on purpose: a bad operation rolls back those before it.
      for (const o of operations) {
        if (o.op === 'put') this.#put.run(o.key, checkValue(o.key, o.value));
        else this.#delete.run(o.key);
      }
    });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.#get.get(key);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.#put.run(key, checkValue(key, value));
  }

  async delete(key: string): Promise<void> {
    this.#delete.run(key);
  }

  /**
   * Reads the prefix's run of the index, and when it meets a grandchild `c/...` lists `c/`
   * and seeks past every key below it (`'0'` is the character after `/`). So a listing costs
   * one row per leaf child plus one seek per folder, however many keys lie deeper.
   */
  async list(prefix: string): Promise<string[]> {
    const children: string[] = [];
    let from = prefix;
    seek: for (;;) {
      for (const key of this.#keysFrom.iterate(from)) {
        if (!key.startsWith(prefix)) break seek;
        const rest = key.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash === -1) {
          children.push(rest);
          continue;
        }
        children.push(rest.slice(0, slash + 1));
        from = `${prefix}${rest.slice(0, slash)}0`;
        continue seek;
      }
      break;
    }
    return children;
  }

  async transaction(operations: StorageOperation[]): Promise<void> {
    this.#apply(operations);
  }

  /**
   * A second connection in a read transaction: in WAL mode it sees the database as of its
   * first read (the count, taken here) while this connection keeps writing, and it reads
   * rows one at a time from the index.
   */
  async openSnapshot(): Promise<StorageSnapshot> {
    const reader = new Database(this.#path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    let isOpen = true;
    const release = () => {
      if (!isOpen) return;
      isOpen = false;
      reader.close();
    };
    try {
      reader.exec('BEGIN');
      const count = reader.prepare<[], number>('SELECT COUNT(*) FROM entries').pluck().get() ?? 0;
      const rows = reader.prepare<[], StorageEntry>('SELECT key, value FROM entries ORDER BY key');
      return {
        count,
        async *entries() {
          try {
            yield* rows.iterate();
          } finally {
            release();
          }
        },
        async close() {
          release();
        },
      };
    } catch (err) {
      release();
      throw err;
    }
  }

  /**
   * Stages the entries in a TEMP table (this connection's own, gone on close or crash), then
   * swaps them in with one transaction: the file holds either the old entries or the new ones.
   */
  async replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    const stage = `restore_${++this.#restoreCount}`;
    this.#db.exec(`CREATE TEMP TABLE ${stage} (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID`);
    try {
      const insert = this.#db.prepare<[string, Uint8Array]>(`INSERT INTO temp.${stage} (key, value) VALUES (?, ?)`);
      const insertBatch = this.#db.transaction((batch: StorageEntry[]) => {
        for (const { key, value } of batch) insert.run(checkKey(key), checkValue(key, value));
      });
      let batch: StorageEntry[] = [];
      for await (const entry of entries) {
        batch.push(entry);
        if (batch.length < RESTORE_BATCH) continue;
        insertBatch(batch);
        batch = [];
      }
      insertBatch(batch);
      this.#db.transaction(() => {
        this.#db.exec('DELETE FROM main.entries');
        this.#db.exec(`INSERT INTO main.entries (key, value) SELECT key, value FROM temp.${stage}`);
      })();
    } finally {
      this.#db.exec(`DROP TABLE IF EXISTS temp.${stage}`);
    }
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string') throw new InternalError('storage key must be a string');
  return key;
}

function checkValue(key: string, value: unknown): Uint8Array {
  // SQLite would store a string or number without complaint, and get() would then return it.
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return value;
}
