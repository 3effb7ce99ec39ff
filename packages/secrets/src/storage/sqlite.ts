import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InternalError } from '../logical/errors.js';
import type { StorageBackend, StorageOperation } from './storage.js';

export interface SqliteStorageOptions {
  /** The database file; its directory is created (mode 0700) when missing. */
  path: string;
}

/** How long a write waits for another process holding the file's write lock before failing. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * The embedded default: one SQLite file, one table. better-sqlite3 is synchronous, so
 * each method does its work before its promise settles, and nothing interleaves inside one call.
 */
export class SqliteStorage implements StorageBackend {
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string], Buffer>;
  readonly #put: Database.Statement<[string, Uint8Array]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #keysFrom: Database.Statement<[string], string>;
  readonly #apply: (operations: StorageOperation[]) => void;

  constructor(options: SqliteStorageOptions) {
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

  async close(): Promise<void> {
    this.#db.close();
  }
}

function checkValue(key: string, value: unknown): Uint8Array {
  // SQLite would store a string or number without complaint, and get() would then return it.
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return value;
}
