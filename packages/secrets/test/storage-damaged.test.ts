import assert from 'node:assert/strict';
import { mkdtemp, open, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { startSqliteWard, startWard } from './ward-process.js';

// Issue 28 point 6: a damaged SQLite file stops `ward server` at start with exit status 1 and one
// line naming the file and the fix; no stack trace, no server answering 500, and an empty file
// that was there before is never taken for a new store. Through bin/ward.
const config = (db: string) =>
  `storage "sqlite" {\n  path = "${db}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`;

/** Starts bin/ward on `db` and waits for it to exit (it must not keep running). */
async function startAndExit(dir: string, db: string): Promise<{ code: number | string; output: string }> {
  const file = join(dir, `ward-${Math.random().toString(36).slice(2)}.hcl`);
  await writeFile(file, config(db));
  const ward = startWard(['server', `-config=${file}`]);
  const timer = setTimeout(() => ward.child.kill('SIGKILL'), 20_000);
  const code = await ward.exited;
  clearTimeout(timer);
  return { code, output: ward.output() };
}

function assertRefused(run: { code: number | string; output: string }, db: string, why: RegExp) {
  assert.equal(run.code, 1, run.output);
  const lines = run.output.trim().split('\n');
  assert.equal(lines.length, 1, run.output);
  assert.ok(lines[0]?.includes(db), run.output);
  assert.match(lines[0] ?? '', why);
  assert.match(lines[0] ?? '', /snapshot/);
  assert.doesNotMatch(run.output, /\bat .*\.js:\d+/);
}

describe('a damaged SQLite store at start (issue 28 point 6)', () => {
  let dir: string;
  /** A store with some writes in it, shut down cleanly. */
  let good: Buffer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-damaged-'));
    const w = await startSqliteWard(join(dir, 'good'));
    for (let i = 0; i < 200; i++) {
      const res = await request(w.url, 'PUT', `secret/k${i}`, { token: w.rootToken, body: { v: 'x'.repeat(500) } });
      assert.equal(res.status, 204);
    }
    w.ward.child.kill('SIGTERM');
    await w.ward.exited;
    const { readFile } = await import('node:fs/promises');
    good = await readFile(w.databasePath);
    assert.ok(good.length > 20 * 4096, `store of ${good.length} bytes`);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a garbage file', async () => {
    const db = join(dir, 'garbage.db');
    await writeFile(db, Buffer.alloc(16_384, 0x5a));
    assertRefused(await startAndExit(dir, db), db, /not a database|damaged/);
  });

  it('refuses a truncated file', async () => {
    const db = join(dir, 'truncated.db');
    await writeFile(db, good);
    await truncate(db, Math.floor(good.length / 2) + 100);
    assertRefused(await startAndExit(dir, db), db, /damaged/);
  });

  it('refuses a file with damaged pages (quick_check)', async () => {
    const db = join(dir, 'pages.db');
    await writeFile(db, good);
    const handle = await open(db, 'r+');
    for (const page of [3, 7, 11]) await handle.write(Buffer.alloc(600, 0xa5), 0, 600, page * 4096 + 100);
    await handle.close();
    assertRefused(await startAndExit(dir, db), db, /damaged/);
  });

  it('refuses an empty file that was already there instead of starting a new store over it', async () => {
    const db = join(dir, 'empty.db');
    await writeFile(db, '');
    assertRefused(await startAndExit(dir, db), db, /empty/);
    assert.equal((await stat(db)).size, 0, 'the file is left as it was');
  });
});
