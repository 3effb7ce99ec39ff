import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { openStore, type Store } from '../store/index.js';
import { ResponseCache } from './response-cache.js';

const body = Buffer.from('{"data":1}');

function cacheOf(store: Store, clock = new FakeClock(0)): ResponseCache {
  const stamp = store.database.changeStamp;
  if (!stamp) throw new Error('SQLite gives a change stamp');
  return new ResponseCache(stamp, clock);
}

describe('ResponseCache', () => {
  it('serves an entry until anything is written through this connection', async () => {
    const store = await openStore({ sqlitePath: ':memory:' }, new SeededRandom(1));
    const cache = cacheOf(store);
    cache.set('k', body, Number.POSITIVE_INFINITY, cache.stamp());
    assert.equal(cache.get('k'), body);
    assert.equal(cache.get('k'), body);
    await store.users.create({ username: 'u', email: 'u@example.com', isSiteAdmin: false, nowMs: 0 });
    assert.equal(cache.get('k'), undefined);
    await store.close();
  });

  it('keeps no body computed while something was written', async () => {
    const store = await openStore({ sqlitePath: ':memory:' }, new SeededRandom(1));
    const cache = cacheOf(store);
    const before = cache.stamp();
    await store.users.create({ username: 'u', email: 'u@example.com', isSiteAdmin: false, nowMs: 0 });
    cache.set('k', body, Number.POSITIVE_INFINITY, before);
    assert.equal(cache.get('k'), undefined);
    await store.close();
  });

  it('drops an entry when another connection commits to the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-platform-cache-'));
    try {
      const path = join(dir, 'p.db');
      const mine = await openStore({ sqlitePath: path }, new SeededRandom(1));
      const theirs = await openStore({ sqlitePath: path }, new SeededRandom(2));
      const cache = cacheOf(mine);
      cache.set('k', body, Number.POSITIVE_INFINITY, cache.stamp());
      assert.equal(cache.get('k'), body);
      await theirs.organizations.create({ name: 'acme', email: 'a@example.com', nowMs: 0 });
      assert.equal(cache.get('k'), undefined);
      await mine.close();
      await theirs.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops an entry when its time is up', async () => {
    const store = await openStore({ sqlitePath: ':memory:' }, new SeededRandom(1));
    const clock = new FakeClock(0);
    const cache = cacheOf(store, clock);
    cache.set('k', body, 1000, cache.stamp());
    clock.advance(999);
    assert.equal(cache.get('k'), body);
    clock.advance(1);
    assert.equal(cache.get('k'), undefined);
    await store.close();
  });
});
