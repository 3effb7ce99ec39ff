import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { InternalError, StorageFullError } from '../../logical/errors.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from '../storage.js';
import { StorageUnusableError } from '../storage-errors.js';
import { createSharedTables, logRestore } from './sqlite-change-log.js';
import { encodeGroup } from './sqlite-group.js';
import type { GroupAnswer, WriteFailure, WriterSetup } from './sqlite-writer.js';

export interface SqliteStorageOptions {
  /** The database file; its directory is created (mode 0700) when missing. */
  path: string;
  /**
   * Several server processes share the file (`workers` > 1): each write also records its keys in
   * a change log, in the same transaction, which the others follow (`SqliteChangeFeed`).
   */
  hasChangeLog?: boolean;
}

/** How long a write waits for another process holding the file's write lock before failing. */
const BUSY_TIMEOUT_MS = 5_000;

/** Rows staged per transaction during a restore: few enough to stay small, many enough to be fast. */
const RESTORE_BATCH = 1_000;

/**
 * Page cache (KiB, as `cache_size` takes it when negative) of the two one-pass jobs: the snapshot
 * reader and a restore's staging table. Each page is read or written once, so a cache only holds
 * memory: this build's default (16 MB per schema) showed as 13–15 MB of the server's RSS per job.
 */
const ONE_PASS_CACHE_KIB = 1024;

/** A failed write as the caller sees it: `StorageFullError` (507) for a full disk, else an internal error. */
function writeError(what: string, failure: WriteFailure): Error {
  if (failure.code === 'SQLITE_FULL') return new StorageFullError({ cause: failure.message });
  return new InternalError(`${what}: ${failure.message}`);
}

/** The one-line fix for a damaged store, in every refusal. */
const RESTORE_HINT =
  'restore the file from a backup, or move it aside, start the server on a new file and restore a snapshot ' +
  '(ward operator raft snapshot restore)';

/**
 * Refuses a database file that exists and is empty with no write-ahead log beside it: no store
 * this server wrote is ever like that (the first start writes the header), so it is a store
 * emptied by accident, and starting a new one over it would let an operator initialise over
 * their data. A missing file is a new store.
 */
function refuseEmptyFile(path: string): void {
  const size = fileSize(path);
  if (size !== 0 || (fileSize(`${path}-wal`) ?? 0) > 0) return;
  throw new StorageUnusableError(
    `storage file ${path} is empty (0 bytes) but was already there: ${RESTORE_HINT}; delete the file to start a new store`,
  );
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Opens the database in WAL mode with every commit synced, after `PRAGMA quick_check` (every page
 * read once: O(size), at start only). A file SQLite cannot read, or one with damaged pages, is a
 * `StorageUnusableError` naming the file, not a server that answers 500 to every request.
 */
function openChecked(path: string, hasChangeLog: boolean): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL may lose the last commits on power loss; FULL syncs the WAL on
    // every commit, so a write is on disk before its promise resolves.
    db.pragma('synchronous = FULL');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') {
      // SQLite's report spans lines ("*** in database main ***", one per damaged page): the first finding is enough.
      const finding =
        String(check)
          .split('\n')
          .find((l) => l.trim() !== '' && !l.startsWith('***')) ?? 'quick_check failed';
      throw new StorageUnusableError(`storage file ${path} is damaged (${finding.trim()}): ${RESTORE_HINT}`);
    }
    db.exec('CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID');
    if (hasChangeLog) createSharedTables(db);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof StorageUnusableError || !(err instanceof Database.SqliteError)) throw err;
    const what = /^SQLITE_(NOTADB|CORRUPT)/.test(err.code) ? 'damaged' : 'unusable';
    throw new StorageUnusableError(`storage file ${path} is ${what} (${err.message}): ${RESTORE_HINT}`, { cause: err });
  }
}

/** A write waiting for its group's commit, with its caller's promise. */
interface PendingWrite {
  operations: StorageOperation[];
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The embedded default: one SQLite file, one table. Reads run on this thread (better-sqlite3 is
 * synchronous, so each read is done before its promise settles).
 *
 * Writes are committed in groups by a worker thread (`sqlite-writer.ts`) with a connection of its
 * own. With `synchronous = FULL` every commit costs an fsync (milliseconds); done here, it would
 * block the event loop and cap the server at one write per fsync however many clients wait.
 * While the worker commits one group, every write issued meanwhile queues; the next group takes
 * them all, in one transaction and one fsync. Each write keeps its own atomicity (a savepoint: a
 * failing transaction rolls back alone), no write's promise settles before its group is on disk,
 * and no reader sees a write before then (WAL: a commit becomes visible once it is synced).
 */
export class SqliteStorage implements StorageBackend {
  /** The database file, as the change feed and the HA lock open it too. */
  readonly path: string;
  readonly hasChangeLog: boolean;
  #writtenRevision = 0;
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string], Buffer>;
  readonly #keysFrom: Database.Statement<[string], string>;
  readonly #holds: Database.Statement<[Uint8Array, string], number>;
  readonly #writer: Worker;
  #pending: PendingWrite[] = [];
  /** The group the worker is committing; undefined while it is idle. */
  #inFlight: PendingWrite[] | undefined;
  #isSendScheduled = false;
  #writerFailure: Error | undefined;
  #isClosed = false;
  #hasWriterExited = false;
  #idleWaiters: Array<() => void> = [];
  /** Names each restore's staging table, so two restores on this connection never share one. */
  #restoreCount = 0;

  constructor(options: SqliteStorageOptions) {
    this.path = options.path;
    this.hasChangeLog = options.hasChangeLog === true;
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    refuseEmptyFile(options.path);
    // Create the file ourselves so it is never readable by others, not even for a moment;
    // SQLite gives its -wal and -shm files the mode of the database file.
    closeSync(openSync(options.path, 'a', 0o600));
    chmodSync(options.path, 0o600);
    this.#db = openChecked(options.path, this.hasChangeLog);

    this.#get = this.#db.prepare<[string], Buffer>('SELECT value FROM entries WHERE key = ?').pluck();
    // Text keys compare as UTF-8 bytes (BINARY collation), so every key with a given prefix
    // sits in one contiguous run of the primary-key index starting at the prefix itself.
    // The comparison runs in SQLite: the stored blob is not copied into a Buffer to be compared here.
    this.#holds = this.#db.prepare<[Uint8Array, string], number>('SELECT value = ? FROM entries WHERE key = ?').pluck();
    this.#keysFrom = this.#db.prepare<[string], string>('SELECT key FROM entries WHERE key >= ? ORDER BY key').pluck();
    const setup: WriterSetup = { path: options.path, busyTimeoutMs: BUSY_TIMEOUT_MS, hasChangeLog: this.hasChangeLog };
    // No inherited flags: `--input-type` or `--eval` in a parent would stop the worker from starting.
    this.#writer = new Worker(new URL('./sqlite-writer.js', import.meta.url), { workerData: setup, execArgv: [] });
    this.#writer.unref(); // referenced only while a group is being committed
    this.#writer.on('message', (answer: GroupAnswer) => this.#settle(answer));
    this.#writer.on('error', (err) => this.#fail(err));
    this.#writer.on('exit', () => {
      this.#hasWriterExited = true;
      this.#fail(new InternalError('storage writer stopped'));
    });
  }

  /** The revision this process's latest write reached (0 before any, and without a change log). */
  get writtenRevision(): number {
    return this.#writtenRevision;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.#get.get(key);
  }

  async holds(key: string, value: Uint8Array): Promise<boolean> {
    return this.#holds.get(value, key) === 1;
  }

  put(key: string, value: Uint8Array): Promise<void> {
    return this.#write([{ op: 'put', key, value }]);
  }

  delete(key: string): Promise<void> {
    return this.#write([{ op: 'delete', key }]);
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

  transaction(operations: StorageOperation[]): Promise<void> {
    return this.#write(operations);
  }

  /** Queues `operations` for the next group; settles once that group is on disk. */
  #write(operations: StorageOperation[]): Promise<void> {
    try {
      // Checked here, so a bad operation fails at once and none of its write is sent.
      for (const o of operations) if (o.op === 'put') checkValue(o.key, o.value);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.#writerFailure) return Promise.reject(this.#writerFailure);
    return new Promise((resolve, reject) => {
      this.#pending.push({ operations, resolve, reject });
      this.#scheduleSend();
    });
  }

  /** Sends the queued writes once the worker is idle, after this turn's writes have joined them. */
  #scheduleSend(): void {
    if (this.#inFlight || this.#isSendScheduled || this.#pending.length === 0) return;
    this.#isSendScheduled = true;
    setImmediate(() => {
      this.#isSendScheduled = false;
      this.#send();
    });
  }

  #send(): void {
    if (this.#inFlight || this.#pending.length === 0) return;
    const group = this.#pending;
    this.#pending = [];
    this.#inFlight = group;
    this.#writer.ref();
    const { request, transfer } = encodeGroup(group.map((w) => w.operations));
    this.#writer.postMessage(request, transfer);
  }

  #settle(answer: GroupAnswer): void {
    const group = this.#inFlight ?? [];
    this.#inFlight = undefined;
    this.#writer.unref();
    if ('failure' in answer) {
      const err = writeError('storage commit failed', answer.failure);
      for (const write of group) write.reject(err);
    } else {
      group.forEach((write, i) => {
        const outcome = answer.outcomes[i] ?? 0;
        if (typeof outcome === 'number') {
          if (outcome > this.#writtenRevision) this.#writtenRevision = outcome;
          write.resolve();
        } else write.reject(writeError('storage write failed', outcome));
      });
    }
    this.#send(); // what queued meanwhile goes at once: it has already waited one fsync
    if (this.#pending.length === 0 && !this.#inFlight) this.#notifyIdle();
  }

  /** The worker is gone: every write waiting or in flight fails, and so does every later one. */
  #fail(err: Error): void {
    if (this.#isClosed && !this.#inFlight && this.#pending.length === 0) return;
    this.#writerFailure ??= err;
    for (const write of [...(this.#inFlight ?? []), ...this.#pending]) write.reject(err);
    this.#inFlight = undefined;
    this.#pending = [];
    this.#notifyIdle();
  }

  /** Resolves once every write issued so far has settled. */
  #drained(): Promise<void> {
    if (!this.#inFlight && this.#pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #notifyIdle(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * A second connection in a read transaction: in WAL mode it sees the database as of its
   * first read (the count, taken here) while this connection keeps writing, and it reads
   * rows one at a time from the index.
   */
  async openSnapshot(): Promise<StorageSnapshot> {
    const reader = new Database(this.path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    let isOpen = true;
    const release = () => {
      if (!isOpen) return;
      isOpen = false;
      reader.close();
    };
    try {
      reader.pragma(`cache_size = -${ONE_PASS_CACHE_KIB}`);
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
    await this.#drained(); // writes issued before the restore land before it
    const stage = `restore_${++this.#restoreCount}`;
    this.#db.pragma(`temp.cache_size = -${ONE_PASS_CACHE_KIB}`);
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
        // Every process sharing the file drops every cache: a restore changes any key.
        if (this.hasChangeLog) logRestore(this.#db);
      })();
    } finally {
      this.#db.exec(`DROP TABLE IF EXISTS temp.${stage}`);
    }
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    await this.#drained();
    this.#isClosed = true;
    // A writer that died (its error already failed every write) has nothing to close.
    const exited = this.#hasWriterExited
      ? Promise.resolve()
      : new Promise((resolve) => this.#writer.once('exit', resolve));
    this.#writer.ref(); // keeps this process alive until the worker has closed its connection
    this.#writer.postMessage('close');
    await exited;
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
