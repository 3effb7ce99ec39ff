import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { openStore } from '../store/index.js';
import { ResponseCache } from './response-cache.js';

const body = Buffer.from('{"data":1}');

describe('ResponseCache', () => {
  it('serves an entry until anything is written through this connection', () => {
    const store = openStore(':memory:', new SeededRandom(1));
    const cache = new ResponseCache(store.db, new FakeClock(0));
    cache.set('k', body, Number.POSITIVE_INFINITY);
    assert.equal(cache.get('k'), body);
    assert.equal(cache.get('k'), body);
    store.users.create({ username: 'u', email: 'u@example.com', isSiteAdmin: false, nowMs: 0 });
    assert.equal(cache.get('k'), undefined);
    store.close();
  });

  it('drops an entry when another connection commits to the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-platform-cache-'));
    try {
      const path = join(dir, 'p.db');
      const mine = openStore(path, new SeededRandom(1));
      const theirs = openStore(path, new SeededRandom(2));
      const cache = new ResponseCache(mine.db, new FakeClock(0));
      cache.set('k', body, Number.POSITIVE_INFINITY);
      assert.equal(cache.get('k'), body);
      theirs.organizations.create({ name: 'acme', email: 'a@example.com', nowMs: 0 });
      assert.equal(cache.get('k'), undefined);
      mine.close();
      theirs.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops an entry when its time is up', () => {
    const store = openStore(':memory:', new SeededRandom(1));
    const clock = new FakeClock(0);
    const cache = new ResponseCache(store.db, clock);
    cache.set('k', body, 1000);
    clock.advance(999);
    assert.equal(cache.get('k'), body);
    clock.advance(1);
    assert.equal(cache.get('k'), undefined);
    store.close();
  });
});
