import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { StorageOperation } from '../storage.js';
import { ChangeLogWriter } from './sqlite-change-log.js';
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
  /** Record each write's keys in the change log, in its own transaction (several server processes share the file). */
  hasChangeLog: boolean;
}

/** Why a write (or a whole commit) failed: SQLite's message and code (`SQLITE_FULL` for a full disk). */
export interface WriteFailure {
  message: string;
  code: string;
}

/**
 * Per write, the revision it committed at (its change-log row; 0 without a change log), else the
 * error that rolled it back; or the commit's error.
 */
export type GroupAnswer = { outcomes: Array<WriteFailure | number> } | { failure: WriteFailure };

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
const changeLog = setup.hasChangeLog ? new ChangeLogWriter(db) : undefined;

/** Applies one write; its revision (the change-log row written in the same transaction), or 0 without a log. */
function applyAll(operations: StorageOperation[]): number {
  for (const o of operations) {
    if (o.op === 'put') put.run(o.key, o.value);
    else remove.run(o.key);
  }
  return changeLog ? changeLog.record(operations.map((o) => o.key)) : 0;
}
const apply = db.transaction(applyAll);
/** The common case: every write of the group in one transaction, with no statement besides the writes. */
const commitWhole = db.transaction((writes: StorageOperation[][]) => {
  const revisions = writes.map((operations) => applyAll(operations));
  changeLog?.afterGroup();
  return revisions;
});
// A nested transaction is a savepoint: a failing write rolls back alone.
const commitEach = db.transaction((writes: StorageOperation[][]) =>
  writes.map((operations) => {
    try {
      return apply(operations);
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
function commitGroup(writes: StorageOperation[][]): Array<WriteFailure | number> {
  try {
    return commitWhole(writes);
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
