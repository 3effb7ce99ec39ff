import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError, SealedError } from '../../logical/errors.js';
import { REVOKE_ERROR_MAX_CHARS, tokenIndexPrefix } from './lease.js';
import { MAX_REVOKE_ATTEMPTS, REVOKE_RETRY_BASE_MS } from './renewal.js';
import { advance, createTestManager, testAccessorDigest } from './testing.js';

const secret = (path: string, ttlSeconds: number, extra: { maxTtlSeconds?: number; tokenAccessor?: string } = {}) => ({
  path,
  ttlSeconds,
  renewable: true,
  kind: 'secret' as const,
  secret: { username: 'v-user' },
  ...extra,
});

describe('ExpirationManager: expiry', () => {
  it('revokes a lease when its TTL runs out, not a millisecond before', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('database/creds/ro', 60));
    assert.match(id, /^database\/creds\/ro\/[0-9A-Za-z]{24}$/);

    await advance(t, 60_000 - 1);
    assert.deepEqual(t.revoker.revokedIds, []);
    assert.ok(t.manager.lookup(id));

    await advance(t, 1);
    assert.deepEqual(t.revoker.revokedIds, [id]);
    assert.equal(t.manager.lookup(id), undefined);
    assert.deepEqual(await t.storage.list('id/'), []);
    assert.equal(t.clock.pendingTimers, 0);
  });

  it('revokes many leases in expiry order with one timer', async () => {
    const t = await createTestManager();
    const ttls = [50, 10, 40, 20, 30, 10, 60, 5];
    const ids = await Promise.all(ttls.map((ttl, i) => t.manager.register(secret(`db/creds/r${i}`, ttl))));
    assert.equal(t.clock.pendingTimers, 1);
    for (let s = 1; s <= 60; s++) {
      await advance(t, 1000);
      const expected = ids.filter((_, i) => (ttls[i] ?? 0) <= s);
      assert.deepEqual([...t.revoker.revokedIds].sort(), [...expected].sort(), `after ${s}s`);
    }
    const order = t.revoker.revoked.map((r) => ttls[ids.indexOf(r.id)]);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
    assert.equal(t.clock.maxPending, 1);
  });

  it('never revokes a lease without TTL', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/forever', 0));
    assert.equal(t.clock.pendingTimers, 0);
    await advance(t, 10 * 365 * 86_400_000);
    assert.equal(t.manager.lookup(id)?.expire_time_ms, 0);
  });

  it('waits out TTLs longer than the longest timer a Node timer holds (768 h) with one clock timer', async () => {
    const t = await createTestManager();
    const ttlMs = 768 * 3_600_000;
    const id = await t.manager.register(secret('db/creds/long', ttlMs / 1000));
    await advance(t, 2 ** 31 - 1);
    assert.deepEqual(t.revoker.revokedIds, []);
    assert.equal(t.clock.pendingTimers, 1, 'still armed for the rest');
    await advance(t, ttlMs - 2 ** 31);
    assert.deepEqual(t.revoker.revokedIds, []);
    await advance(t, 1);
    assert.deepEqual(t.revoker.revokedIds, [id]);
  });

  it('keeps revoking other leases while one backend hangs', async () => {
    const t = await createTestManager();
    const slow = await t.manager.register(secret('slow/creds/a', 10));
    const b = await t.manager.register(secret('db/creds/b', 11));
    const c = await t.manager.register(secret('db/creds/c', 12));
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The hung revocation only ends once the others are through: with a stalled queue this test would hang.
    t.revoker.onRevoke = async (lease) => {
      if (lease.lease_id === slow) await gate;
      if (lease.lease_id === c) release();
    };
    await advance(t, 12_000);
    assert.deepEqual(t.revoker.revokedIds, [b, c, slow]);
  });

  it('refuses work while stopped (sealed)', async () => {
    const t = await createTestManager();
    await t.manager.stop();
    await assert.rejects(t.manager.register(secret('db/creds/x', 5)), SealedError);
    assert.throws(() => t.manager.list(''), SealedError);
  });
});

describe('ExpirationManager: renew', () => {
  it('extends a lease from now, keeping the one timer on the new expiry', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 60));
    await advance(t, 50_000);
    const result = await t.manager.renew(id, 120);
    assert.equal(result.ttlSeconds, 120);
    assert.equal(t.manager.lookup(id)?.last_renewal_ms, t.clock.now());
    await advance(t, 119_000);
    assert.deepEqual(t.revoker.revokedIds, []);
    await advance(t, 1000);
    assert.deepEqual(t.revoker.revokedIds, [id]);
    assert.equal(t.clock.maxPending, 1);
  });

  it('caps renewals at the max TTL and refuses once it is used up', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 60, { maxTtlSeconds: 100 }));
    await advance(t, 30_000);
    const result = await t.manager.renew(id, 3600);
    assert.deepEqual([result.ttlSeconds, result.capped, result.requestedTtlSeconds], [70, true, 3600]);
    await advance(t, 69_500);
    await assert.rejects(t.manager.renew(id, 10), /past the max TTL, cannot renew/);
  });

  it('asks the revoker for the TTL and uses the previous TTL for a zero increment', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 60));
    t.revoker.renewTtlSeconds = 30;
    assert.equal((await t.manager.renew(id, 600)).ttlSeconds, 30);
    t.revoker.renewTtlSeconds = undefined;
    assert.equal((await t.manager.renew(id, 0)).ttlSeconds, 30);
  });

  it('refuses unknown, non-renewable, expired and token leases with the established texts', async () => {
    const t = await createTestManager();
    await assert.rejects(t.manager.renew('nope/x', 10), { message: 'lease not found' });
    const fixed = await t.manager.register({ ...secret('db/creds/fixed', 60), renewable: false });
    await assert.rejects(t.manager.renew(fixed, 10), { message: 'lease is not renewable' });
    const token = await t.manager.register({
      ...secret('auth/token/create', 60),
      kind: 'token',
      tokenAccessor: 'acc1',
    });
    await assert.rejects(t.manager.renew(token, 10), { message: 'tokens cannot be renewed through this endpoint' });
    const failing = await t.manager.register(secret('db/creds/failing', 10));
    t.revoker.failNext(failing, 1);
    await advance(t, 10_000);
    await assert.rejects(t.manager.renew(failing, 10), (err: unknown) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.equal(err.message, 'lease expired');
      return true;
    });
  });

  it('moves a token lease when the token store renews the token', async () => {
    const t = await createTestManager();
    const id = await t.manager.register({ ...secret('auth/token/create', 60), kind: 'token', tokenAccessor: 'acc1' });
    await t.manager.renewToken(id, 600);
    await advance(t, 599_000);
    assert.deepEqual(t.revoker.revokedIds, []);
    await advance(t, 1000);
    assert.deepEqual(t.revoker.revokedIds, [id]);
  });
});

describe('ExpirationManager: revoke', () => {
  it('revokes one lease now, or later when not sync; unknown leases are no error', async () => {
    const t = await createTestManager();
    const a = await t.manager.register(secret('db/creds/ro', 60));
    const b = await t.manager.register(secret('db/creds/ro', 60));
    await t.manager.revoke(a);
    assert.deepEqual(t.revoker.revokedIds, [a]);
    await t.manager.revoke(b, { sync: false });
    await t.manager.settled();
    assert.deepEqual(t.revoker.revokedIds, [a, b]);
    await t.manager.revoke('db/creds/ro/unknown');
    assert.equal(t.manager.count().total, 0);
  });

  it('reports a revoker failure on a sync revoke and keeps the lease', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 60));
    t.revoker.failNext(id, 1);
    await assert.rejects(t.manager.revoke(id), /failed to revoke entry: backend unavailable/);
    assert.ok(t.manager.lookup(id));
  });

  it('revokes by prefix, stops at a failure, and force deletes despite it', async () => {
    const t = await createTestManager();
    const ids = [];
    for (const p of ['db/creds/a', 'db/creds/a', 'db/creds/b', 'dbx/creds/a'])
      ids.push(await t.manager.register(secret(p, 60)));
    const [a1, a2, b1, other] = ids as [string, string, string, string];
    t.revoker.failNext(b1, 10);
    await assert.rejects(t.manager.revokePrefix('db/'), /failed to revoke "db\/creds\/b\/.*" \(3 \/ 3\)/);
    assert.deepEqual(t.manager.list('db/creds/'), ['b/']);
    await t.manager.revokePrefix('db', { force: true });
    assert.deepEqual(t.manager.list(''), ['dbx/']);
    assert.deepEqual([...t.revoker.revokedIds].sort(), [a1, a2].sort());
    await t.manager.revokePrefix(other);
    assert.equal(t.manager.count().total, 0);
  });

  it('revokes every secret of a token and drops its token lease without calling back', async () => {
    const t = await createTestManager();
    const token = await t.manager.register({
      ...secret('auth/token/create', 600),
      kind: 'token',
      tokenAccessor: 'acc1',
    });
    const s1 = await t.manager.register(secret('db/creds/ro', 60, { tokenAccessor: 'acc1' }));
    const s2 = await t.manager.register(secret('aws/creds/ro', 60, { tokenAccessor: 'acc1' }));
    const mine = await t.manager.register(secret('db/creds/ro', 60, { tokenAccessor: 'acc2' }));
    await t.manager.revokeByToken('acc1');
    assert.deepEqual([...t.revoker.revokedIds].sort(), [s1, s2].sort());
    assert.equal(t.manager.lookup(token), undefined);
    assert.ok(t.manager.lookup(mine));
    assert.deepEqual(await t.storage.list(tokenIndexPrefix(testAccessorDigest('acc1'))), []);
  });

  it('lets the revoker of an expiring token revoke that token’s secrets (no deadlock)', async () => {
    const t = await createTestManager();
    const token = await t.manager.register({
      ...secret('auth/token/create', 30),
      kind: 'token',
      tokenAccessor: 'acc1',
    });
    const s1 = await t.manager.register(secret('db/creds/ro', 600, { tokenAccessor: 'acc1' }));
    t.revoker.onRevoke = async (lease) => {
      if (lease.kind === 'token') await t.manager.revokeByToken(lease.token_accessor);
    };
    await advance(t, 30_000);
    assert.deepEqual(t.revoker.revokedIds, [s1, token]);
    assert.equal(t.manager.count().total, 0);
  });
});

describe('ExpirationManager: failed revocations', () => {
  it('retries with exponential backoff and jitter, then marks the lease irrevocable', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 10));
    t.revoker.failNext(id, 100);
    await advance(t, 10_000);
    assert.equal(t.revoker.attempts.get(id), 1);
    for (let attempt = 1; attempt < MAX_REVOKE_ATTEMPTS; attempt++) {
      const window = REVOKE_RETRY_BASE_MS * 2 ** (attempt - 1);
      await advance(t, window * 0.5 - 1);
      assert.equal(t.revoker.attempts.get(id), attempt, `no retry before half the window (attempt ${attempt})`);
      await advance(t, window + 1);
      assert.equal(t.revoker.attempts.get(id), attempt + 1, `retried within 1.5× the window (attempt ${attempt})`);
    }
    const entry = t.manager.lookup(id);
    assert.equal(entry?.irrevocable, true);
    assert.equal(entry?.revoke_attempts, MAX_REVOKE_ATTEMPTS);
    assert.equal(entry?.revoke_error.length, REVOKE_ERROR_MAX_CHARS);
    assert.deepEqual(t.manager.count(), { total: 1, irrevocable: 1 });
    assert.equal(t.clock.pendingTimers, 0);
    await advance(t, 86_400_000);
    assert.equal(t.revoker.attempts.get(id), MAX_REVOKE_ATTEMPTS);
    await t.manager.revoke(id, { force: true });
    assert.deepEqual(t.manager.count(), { total: 0, irrevocable: 0 });
  });

  it('succeeds on a retry after transient failures', async () => {
    const t = await createTestManager();
    const id = await t.manager.register(secret('db/creds/ro', 10));
    t.revoker.failNext(id, 2);
    for (const step of [10_000, 15_000, 30_000]) await advance(t, step);
    assert.deepEqual(t.revoker.revokedIds, [id]);
    assert.equal(t.revoker.attempts.get(id), 3);
  });
});

describe('ExpirationManager: list', () => {
  it('lists next segments and lease suffixes below a prefix', async () => {
    const t = await createTestManager();
    const a = await t.manager.register(secret('db/creds/ro', 60));
    await t.manager.register(secret('db/creds/rw/x', 60));
    await t.manager.register(secret('aws/creds/ro', 60));
    assert.deepEqual(t.manager.list(''), ['aws/', 'db/']);
    assert.deepEqual(t.manager.list('db/creds'), ['ro/', 'rw/']);
    assert.deepEqual(t.manager.list('db/creds/ro/'), [a.slice('db/creds/ro/'.length)]);
    assert.deepEqual(t.manager.list('nothing/'), []);
  });
});
