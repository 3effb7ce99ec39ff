import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { SqliteStorage } from './sqlite.js';
import { SqliteHaLock } from './sqlite-lock.js';

// Issue 36: the worker processes of one server campaign for one lock row in their shared file.
describe('SqliteHaLock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-sqlite-lock-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const freshStore = () => new SqliteStorage({ path: join(dir, `db-${n++}`, 'ward.db'), hasChangeLog: true });

  it('is held by one at a time, advertises its holder, and passes on release', async () => {
    const store = freshStore();
    const a = new SqliteHaLock({ path: store.path, value: 'a', pollMs: 20 });
    const b = new SqliteHaLock({ path: store.path, value: 'b', pollMs: 20 });
    await a.acquire();
    assert.equal(await b.holder(), 'a');
    let isBHolding = false;
    const bAcquired = b.acquire().then(() => {
      isBHolding = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(isBHolding, false);
    await a.release();
    await bAcquired;
    assert.equal(await b.holder(), 'b');
    await b.release();
    await store.close();
  });

  it('is taken over at once from a holder killed with SIGKILL, and when its TTL ran out', async () => {
    const store = freshStore();
    const moduleUrl = new URL('./sqlite-lock.js', import.meta.url).href;
    const script = `
      const { SqliteHaLock } = await import(${JSON.stringify(moduleUrl)});
      const lock = new SqliteHaLock({ path: ${JSON.stringify(store.path)}, value: 'child' });
      await lock.acquire();
      console.log('held');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const line of createInterface({ input: child.stdout })) if (line === 'held') break;
    const waiter = new SqliteHaLock({ path: store.path, value: 'waiter', pollMs: 20 });
    assert.equal(await waiter.holder(), 'child');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const startedAt = Date.now();
    await waiter.acquire();
    assert.ok(Date.now() - startedAt < 1_000, 'taken over within a second');

    // A holder that stops renewing (it hangs) loses the row once its TTL is over.
    const lost = new Promise<void>((resolve) => waiter.onLost(resolve));
    const hung = new SqliteHaLock({ path: store.path, value: 'next', ttlMs: 300, pollMs: 20 });
    // Stop the waiter's renewals by expiring its row behind its back.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(store.path);
    db.prepare('UPDATE ha_lock SET valid_until_ms = 0').run();
    db.close();
    await hung.acquire();
    assert.equal(await hung.holder(), 'next');
    await lost; // the waiter's next renewal finds the row taken
    await hung.release();
    await store.close();
  });
});
