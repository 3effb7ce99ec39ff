import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storageCases } from '../storage.case.js';
import { SqliteStorage } from './sqlite.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SqliteStorage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-sqlite-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const freshPath = () => join(dir, `db-${n++}`, 'ward.db');

  storageCases(async () => new SqliteStorage({ path: freshPath() }));

  it('keeps data across close and reopen', async () => {
    const path = freshPath();
    const first = new SqliteStorage({ path });
    await first.put('a/b', bytes('persisted'));
    await first.transaction([{ op: 'put', key: 'a/c', value: bytes('too') }]);
    await first.close();
    const second = new SqliteStorage({ path });
    assert.equal(new TextDecoder().decode(await second.get('a/b')), 'persisted');
    assert.deepEqual(await second.list('a/'), ['b', 'c']);
    await second.close();
  });

  it('creates its directory, a file only the owner can read, and uses the WAL journal', async () => {
    const path = freshPath();
    const s = new SqliteStorage({ path });
    await s.put('k', bytes('v'));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(`${path}-wal`).mode & 0o777, 0o600);
    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    raw.close();
    await s.close();
  });

  it('lets two handles on one file see each other’s writes', async () => {
    const path = freshPath();
    const a = new SqliteStorage({ path });
    const b = new SqliteStorage({ path });
    await a.put('from/a', bytes('1'));
    await b.put('from/b', bytes('2'));
    assert.deepEqual(await a.list('from/'), ['a', 'b']);
    assert.deepEqual(await b.list('from/'), ['a', 'b']);
    await a.close();
    await b.close();
  });

  it('commits writes issued together as a group, each still all-or-nothing on its own', async () => {
    const s = new SqliteStorage({ path: freshPath() });
    const results = await Promise.allSettled([
      s.put('group/a', bytes('a')),
      s.transaction([
        { op: 'put', key: 'group/b', value: bytes('b') },
        { op: 'put', key: 'group/c', value: 'not bytes' as unknown as Uint8Array },
      ]),
      s.delete('group/none'),
      s.transaction([{ op: 'put', key: 'group/d', value: bytes('d') }]),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.deepEqual(await s.list('group/'), ['a', 'd']);
    await s.close();
  });

  it('rolls back alone a write that SQLite refuses inside a group, and commits the rest', async () => {
    const path = freshPath();
    const s = new SqliteStorage({ path });
    // A trigger on the file makes the writer's own INSERT fail, as a full disk or a constraint would.
    const other = new Database(path);
    other.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON entries WHEN NEW.key = 'group/bad' BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    other.close();
    const results = await Promise.allSettled([
      s.put('group/a', bytes('a')),
      s.transaction([
        { op: 'put', key: 'group/b', value: bytes('b') },
        { op: 'put', key: 'group/bad', value: bytes('x') },
      ]),
      s.transaction([
        { op: 'delete', key: 'group/a' },
        { op: 'put', key: 'group/c', value: bytes('c') },
      ]),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(await s.list('group/'), ['c']);
    await s.put('group/d', bytes('d')); // the writer goes on
    assert.deepEqual(await s.list('group/'), ['c', 'd']);
    await s.close();
  });

  it('writes what was queued before close', async () => {
    const path = freshPath();
    const first = new SqliteStorage({ path });
    const written = first.put('late', bytes('still written'));
    await first.close();
    await written;
    const second = new SqliteStorage({ path });
    assert.equal(new TextDecoder().decode(await second.get('late')), 'still written');
    await second.close();
  });

  it('keeps every write acknowledged to 16 concurrent writers when the process is killed with SIGKILL', async () => {
    const path = freshPath();
    const acked = await writeUntilKilled(path, 400, 16);
    assert.ok(acked.length >= 400, `only ${acked.length} writes acknowledged`);
    const s = new SqliteStorage({ path });
    for (const key of acked) assert.equal(new TextDecoder().decode(await s.get(key)), `value of ${key}`, key);
    await s.close();
  });

  it('keeps every acknowledged write when the writing process is killed with SIGKILL', async () => {
    const path = freshPath();
    const acked = await writeUntilKilled(path, 200);
    assert.ok(acked.length >= 200, `only ${acked.length} writes acknowledged`);
    const s = new SqliteStorage({ path });
    for (const key of acked) assert.equal(new TextDecoder().decode(await s.get(key)), `value of ${key}`, key);
    await s.close();
  });
});

/**
 * Runs a child whose `writers` loops write keys as fast as they can, printing each key once its
 * put has resolved; kills it with SIGKILL as soon as `count` acknowledgements have arrived (the
 * child is still writing then) and returns every key it acknowledged.
 */
async function writeUntilKilled(path: string, count: number, writers = 1): Promise<string[]> {
  const moduleUrl = new URL('./sqlite.js', import.meta.url).href;
  const script = `
    const { SqliteStorage } = await import(${JSON.stringify(moduleUrl)});
    const s = new SqliteStorage({ path: ${JSON.stringify(path)} });
    const writer = async (w) => {
      for (let i = 0; ; i++) {
        const key = 'k/' + w + '/' + i;
        if (i % 2) await s.put(key, new TextEncoder().encode('value of ' + key));
        else await s.transaction([{ op: 'put', key, value: new TextEncoder().encode('value of ' + key) }]);
        process.stdout.write(key + '\\n');
      }
    };
    for (let w = 0; w < ${writers}; w++) writer(w);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const acked: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    acked.push(line);
    if (acked.length === count) child.kill('SIGKILL');
  }
  assert.equal(await exited, 'SIGKILL');
  return acked;
}
