import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { createTestTokenStore, SYSTEM_TTLS } from './testing.js';

const PATH = 'auth/token/create';
const DAY = 86_400;

describe('token TTLs', () => {
  it('defaults to the mount default (32 days) and caps at the mount max with a warning', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const plain = await store.create({ path: PATH, policies: ['dev'] }, ctx);
    assert.equal(plain.entry.ttl, 32 * DAY);
    assert.equal(plain.entry.expire_time_ms, clock.now() + 32 * DAY * 1000);
    assert.equal(plain.entry.renewable, true);

    const tuned = { defaultTtlSeconds: 3600, maxTtlSeconds: 7200 };
    assert.equal((await store.create({ path: PATH, policies: ['dev'] }, { ...ctx, mount: tuned })).entry.ttl, 3600);
    const capped = await store.create({ path: PATH, policies: ['dev'], ttl: 10_000 }, { ...ctx, mount: tuned });
    assert.equal(capped.entry.ttl, 7200);
    assert.deepEqual(capped.warnings, [
      'TTL of "2h46m40s" exceeded the effective max_ttl of "2h0m0s"; TTL value is capped accordingly',
    ]);
  });

  it('caps the TTL and every renewal at the explicit max TTL from creation', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const { entry } = await store.create(
      { path: PATH, policies: ['dev'], ttl: 600, explicitMaxTtl: 1000 },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    assert.equal(entry.ttl, 600);
    clock.advance(500_000);
    const renewed = await store.renew(entry, 0, SYSTEM_TTLS);
    assert.equal(renewed.entry.ttl, 500, 'capped to creation + 1000s');
    assert.equal(renewed.warnings.length, 1);
    assert.equal(renewed.entry.last_renewal_time_ms, clock.now());
    clock.advance(499_000);
    assert.equal((await store.renew(renewed.entry, 3600, SYSTEM_TTLS)).entry.ttl, 1);
    clock.advance(1_000);
    await assert.rejects(store.renew(renewed.entry, 60, SYSTEM_TTLS), InvalidRequestError);
  });

  it('renews by the increment asked for, else the original TTL, never past the mount max from creation', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const mount = { defaultTtlSeconds: 600, maxTtlSeconds: 3600 };
    const { entry } = await store.create(
      { path: PATH, policies: ['dev'], ttl: 300 },
      { parent: root.entry, isSudo: true, mount },
    );
    clock.advance(100_000);
    assert.equal((await store.renew(entry, 1000, mount)).entry.ttl, 1000);
    assert.equal((await store.renew(entry, 0, mount)).entry.ttl, 300);
    assert.equal((await store.renew(entry, 9999, mount)).entry.ttl, 3500);
    clock.advance(3_400_000);
    const last = await store.renew(entry, 1000, mount);
    assert.equal(last.entry.ttl, 100);
    assert.equal(last.entry.expire_time_ms, entry.creation_time_ms + 3_600_000);
    clock.advance(100_000);
    await assert.rejects(
      store.renew(entry, 10, mount),
      (err: unknown) => err instanceof InvalidRequestError && err.message === 'lease expired',
    );
  });

  it('gives periodic tokens their period on every renewal, with no max lifetime', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const mount = { defaultTtlSeconds: 600, maxTtlSeconds: 3600 };
    const { token, entry } = await store.create(
      { path: PATH, policies: ['dev'], period: 1800, ttl: 60 },
      { parent: root.entry, isSudo: true, mount },
    );
    assert.equal(entry.ttl, 1800);
    for (let i = 0; i < 5; i++) {
      clock.advance(1_700_000);
      assert.equal((await store.renew(entry, 99_999, mount)).entry.ttl, 1800);
    }
    assert.ok(await store.lookup(token), 'alive well past the mount max');
    const big = await store.create(
      { path: PATH, policies: ['dev'], period: 7200 },
      { parent: root.entry, isSudo: true, mount },
    );
    assert.equal(big.entry.ttl, 3600);
    assert.deepEqual(big.warnings, [
      'period of "2h0m0s" exceeded the effective max_ttl of "1h0m0s"; period value is capped accordingly',
    ]);
  });

  it('stops periodic tokens at their explicit max TTL', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const { entry } = await store.create(
      { path: PATH, policies: ['dev'], period: 600, explicitMaxTtl: 900 },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    clock.advance(500_000);
    assert.equal((await store.renew(entry, 0, SYSTEM_TTLS)).entry.ttl, 400);
  });

  it('refuses to renew non-renewable and non-expiring tokens with the established texts', async () => {
    const { store, root } = await createTestTokenStore();
    const fixed = await store.create(
      { path: PATH, policies: ['dev'], renewable: false },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    const message = (text: string) => (err: unknown) => err instanceof InvalidRequestError && err.message === text;
    await assert.rejects(store.renew(fixed.entry, 0, SYSTEM_TTLS), message('lease is not renewable'));
    await assert.rejects(store.renew(root.entry, 0, SYSTEM_TTLS), message('lease is not renewable'));
  });

  it('tells the expiration manager about every new expiry', async () => {
    const seen: number[] = [];
    const { store, root, clock } = await createTestTokenStore({
      onIssue: async (e) => void seen.push(e.expire_time_ms),
      onRenew: async (e) => void seen.push(-e.ttl),
    });
    const { entry } = await store.create(
      { path: PATH, policies: ['dev'], ttl: 60 },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    clock.advance(10_000);
    await store.renew(entry, 60, SYSTEM_TTLS);
    assert.deepEqual(seen, [entry.expire_time_ms, -60]);
  });
});
