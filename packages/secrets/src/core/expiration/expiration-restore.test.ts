import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leaseKey } from './lease.js';
import { advance, createTestManager, RecordingRevoker } from './testing.js';

const secret = (path: string, ttlSeconds: number, tokenAccessor = '') => ({
  path,
  ttlSeconds,
  renewable: true,
  kind: 'secret' as const,
  tokenAccessor,
});

describe('ExpirationManager: restart', () => {
  it('revokes at once the leases that expired while down, and the rest on time', async () => {
    const first = await createTestManager();
    const ids: Record<number, string> = {};
    for (const ttl of [10, 20, 30, 100, 200]) ids[ttl] = await first.manager.register(secret(`db/creds/t${ttl}`, ttl));
    await first.manager.stop();
    assert.equal(first.clock.pendingTimers, 0, 'stop cancels the timer');

    // Down for 25 s: the 10 s and 20 s leases expire with nobody watching.
    first.clock.advance(25_000);
    assert.deepEqual(first.revoker.revokedIds, []);

    const revoker = new RecordingRevoker(first.clock);
    const second = await createTestManager({ storage: first.storage, clock: first.clock, revoker });
    await second.manager.settled();
    assert.deepEqual([...revoker.revokedIds].sort(), [ids[10], ids[20]].sort());
    assert.equal(second.manager.count().total, 3);
    assert.equal(first.clock.pendingTimers, 1);

    await advance(second, 5000 - 1);
    assert.equal(revoker.revoked.length, 2);
    await advance(second, 1);
    assert.deepEqual(revoker.revokedIds.slice(2), [ids[30]]);
    await advance(second, 200_000);
    assert.deepEqual(revoker.revokedIds.slice(3), [ids[100], ids[200]]);
    assert.deepEqual(await first.storage.list('id/'), []);
  });

  it('keeps retry counts, irrevocable marks, renewals and the token index across a restart', async () => {
    const first = await createTestManager();
    const failing = await first.manager.register(secret('db/creds/failing', 10));
    const renewed = await first.manager.register(secret('db/creds/renewed', 10, 'acc1'));
    first.revoker.failNext(failing, 1);
    await first.manager.renew(renewed, 1000);
    await advance(first, 10_000);
    assert.equal(first.manager.lookup(failing)?.revoke_attempts, 1);
    await first.manager.stop();

    const second = await createTestManager({ storage: first.storage, clock: first.clock });
    assert.equal(second.manager.lookup(failing)?.revoke_attempts, 1);
    assert.equal(second.manager.lookup(renewed)?.expire_time_ms, first.clock.now() - 10_000 + 1_000_000);
    await second.manager.settled();
    assert.deepEqual(second.revoker.revokedIds, [failing]);
    await second.manager.revokeByToken('acc1');
    assert.deepEqual(second.revoker.revokedIds, [failing, renewed]);
  });

  it('picks its leases up again when the same manager is stopped and restored (seal, unseal)', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 30));
    await t.manager.stop();
    assert.equal(t.clock.pendingTimers, 0);
    await t.manager.restore();
    assert.ok(t.manager.lookup(id));
    await advance(t, 30_000);
    assert.deepEqual(t.revoker.revokedIds, [id]);
  });

  it('skips an unreadable entry instead of failing the unseal', async () => {
    const first = await createTestManager();
    const good = await first.manager.register(secret('db/creds/good', 60));
    await first.storage.put(leaseKey('db/creds/bad/x'), new TextEncoder().encode('{not json'));
    await first.manager.stop();
    const second = await createTestManager({ storage: first.storage, clock: first.clock });
    assert.deepEqual(second.manager.list('db/creds/'), ['good/']);
    assert.ok(second.manager.lookup(good));
  });
});
