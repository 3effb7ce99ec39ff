import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { StorageOperation } from '../storage.js';
import { decodeGroup, type GroupRequest } from './sqlite-group.js';

/**
 * The write side of SqliteStorage, in a worker thread of its own: it commits each group of writes
 * the main thread sends in one transaction (one fsync, with `synchronous = FULL`), each write in a
 * savepoint of its own, and answers with each write's outcome once the commit is on disk. The fsync
 * blocks this thread only; the event loop keeps serving and gathering the next group meanwhile.
 */
export interface WriterSetup {
  path: string;
  busyTimeoutMs: number;
}

/** Why a write (or a whole commit) failed: SQLite's message and code (`SQLITE_FULL` for a full disk). */
export interface WriteFailure {
  message: string;
  code: string;
}

/** `null` for a write that committed, else the error that rolled it back; or the commit's error. */
export type GroupAnswer = { outcomes: Array<WriteFailure | null> } | { failure: WriteFailure };

function failureOf(err: unknown, fallback: string): WriteFailure {
  const e = err as { message?: string; code?: unknown };
  return { message: e.message ?? fallback, code: typeof e.code === 'string' ? e.code : '' };
}

const setup = workerData as WriterSetup;
const db = new Database(setup.path, { timeout: setup.busyTimeoutMs });
db.pragma('journal_mode = WAL');
// In WAL mode NORMAL may lose the last commits on power loss; FULL syncs the WAL on
// every commit, so a group is on disk before any of its writes is acknowledged.
db.pragma('synchronous = FULL');
const put = db.prepare<[string, Uint8Array]>(
  'INSERT INTO entries (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
);
const remove = db.prepare<[string]>('DELETE FROM entries WHERE key = ?');
function applyAll(operations: StorageOperation[]): void {
  for (const o of operations) {
    if (o.op === 'put') put.run(o.key, o.value);
    else remove.run(o.key);
  }
}
const apply = db.transaction(applyAll);
/** The common case: every write of the group in one transaction, with no statement besides the writes. */
const commitWhole = db.transaction((writes: StorageOperation[][]) => {
  for (const operations of writes) applyAll(operations);
});
// A nested transaction is a savepoint: a failing write rolls back alone.
const commitEach = db.transaction((writes: StorageOperation[][]) =>
  writes.map((operations) => {
    try {
      apply(operations);
      return null;
    } catch (err) {
      return failureOf(err, 'storage write failed');
    }
  }),
);

/**
 * Commits the group whole; if anything in it fails, that transaction is rolled back entirely and
 * the group is committed again with a savepoint per write, so only the failing writes fail. Writes
 * seldom fail, and two savepoint statements per write were a fifth of this thread's time per write.
 * The failed attempt left nothing behind (rolled back whole), so each write still happens once.
 */
function commitGroup(writes: StorageOperation[][]): Array<WriteFailure | null> {
  try {
    commitWhole(writes);
    return writes.map(() => null);
  } catch {
    return commitEach(writes);
  }
}

parentPort?.on('message', (group: GroupRequest | 'close') => {
  if (group === 'close') {
    db.close();
    parentPort?.close();
    return;
  }
  let answer: GroupAnswer;
  try {
    answer = { outcomes: commitGroup(decodeGroup(group)) };
  } catch (err) {
    // The commit itself failed (disk full, I/O error): none of the writes happened.
    answer = { failure: failureOf(err, 'storage commit failed') };
  }
  parentPort?.postMessage(answer);
});
