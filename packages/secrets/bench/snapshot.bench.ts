import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT_TOKEN, restoreSnapshot, saveSnapshot, startLoadedServer } from '../test/loaded-store.js';
import type { WardProcess } from '../test/ward-process.js';
import { ROUNDS } from './bench-support.js';

/**
 * Snapshot save (`GET sys/storage/raft/snapshot`) and restore (`POST sys/storage/raft/snapshot`)
 * of a `bin/ward` server on SQLite, beside a plain online backup of the same database file in the
 * same run: better-sqlite3's `db.backup()`, SQLite's online-backup API (what `sqlite3 .backup`
 * uses), the whole file in one step. Throughput is the store's key and value bytes per second for
 * all three (the same data), so the ratios compare like with like. Best of ROUNDS interleaved rounds.
 */
const SECRETS = Number(process.env.BENCH_SNAPSHOT_SECRETS ?? 20_000);
const SECRET_BYTES = 800;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

async function sqliteBackup(databasePath: string, destination: string): Promise<void> {
  await rm(destination, { force: true });
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    await db.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/** Bytes of every key and value in the store: the same data, whatever each operation writes. */
function storedBytes(databasePath: string): number {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare<[], number>('SELECT SUM(LENGTH(CAST(key AS BLOB)) + LENGTH(value)) FROM entries').pluck().get() ?? 0
    );
  } finally {
    db.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'ward-snapshot-bench-'));
const running: WardProcess[] = [];
try {
  const server = await startLoadedServer(dir, { count: SECRETS, bytes: SECRET_BYTES }, running);
  // The file as loaded (compacted); later rounds' backups copy it again after a restore has grown it.
  const databaseBytes = (await stat(server.databasePath)).size;
  const dataBytes = storedBytes(server.databasePath);
  const backupFile = join(dir, 'backup.db');
  const snapshotFile = join(dir, 'bench.snap');
  const seconds = { backup: Infinity, save: Infinity, restore: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    seconds.backup = Math.min(seconds.backup, await timed(() => sqliteBackup(server.databasePath, backupFile)));
    seconds.save = Math.min(seconds.save, await timed(() => saveSnapshot(server.url, ROOT_TOKEN, snapshotFile)));
    const restore = () => restoreSnapshot(server.url, ROOT_TOKEN, 'snapshot', snapshotFile);
    seconds.restore = Math.min(seconds.restore, await timed(restore));
  }
  const snapshotBytes = (await stat(snapshotFile)).size;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const mbPerS = (s: number) => dataBytes / 1024 / 1024 / s;
  console.log(
    `\nsnapshots: ${SECRETS} secrets of ${SECRET_BYTES} random bytes: ${mb(dataBytes)} MB of keys and values, a ${mb(databaseBytes)} MB database file, a ${mb(snapshotBytes)} MB snapshot (gzip tar); best of ${ROUNDS} rounds, Node ${process.version}`,
  );
  console.log('| operation | seconds | MB/s of keys and values | ratio to SQLite backup |');
  console.log('|---|---:|---:|---:|');
  for (const [name, s] of [
    ['SQLite online backup (better-sqlite3 db.backup)', seconds.backup],
    ['snapshot save (GET, streamed to a file)', seconds.save],
    ['snapshot restore (POST from a file)', seconds.restore],
  ] as const) {
    console.log(`| ${name} | ${s.toFixed(2)} | ${mbPerS(s).toFixed(1)} | ${(seconds.backup / s).toFixed(2)} |`);
  }
} finally {
  for (const w of running) w.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
}
