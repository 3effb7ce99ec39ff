import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advance, createTestManager } from './testing.js';

const LEASES = 100_000;

describe('ExpirationManager at scale', () => {
  it('registers and expires 100,000 leases with a single pending timer throughout', async () => {
    const t = await createTestManager();
    for (let i = 0; i < LEASES; i++) {
      // TTLs spread over an hour, registered out of order.
      const ttl = 1 + ((i * 7919) % 3600);
      await t.manager.register({ path: `db/creds/r${i % 100}`, ttlSeconds: ttl, renewable: false, kind: 'secret' });
      if (i % 10_000 === 0) assert.equal(t.clock.pendingTimers, 1);
    }
    assert.equal(t.manager.count().total, LEASES);
    assert.equal(t.clock.pendingTimers, 1);

    let previous = 0;
    for (let minute = 1; minute <= 61; minute++) {
      await advance(t, 60_000);
      const revoked = t.revoker.revoked.length;
      assert.ok(revoked >= previous);
      previous = revoked;
      if (revoked < LEASES) assert.equal(t.clock.pendingTimers, 1, `one timer after minute ${minute}`);
    }
    assert.equal(t.revoker.revoked.length, LEASES);
    assert.equal(t.manager.count().total, 0);
    assert.equal(t.clock.pendingTimers, 0);
    assert.equal(t.clock.maxPending, 1, 'never more than one timer at once');
  });
});
