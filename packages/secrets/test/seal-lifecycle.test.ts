import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, startTestServer, type TestServer } from '../src/server/testing.js';

describe('init, unseal, seal, health and leader', () => {
  let t: TestServer;
  let keys: { keys: string[]; keys_base64: string[]; root_token: string };
  const call = (method: string, path: string, body?: unknown, token: string | null = null) =>
    request(t.url, method, path, { body, token });

  before(async () => {
    t = await startTestServer({ uninitialized: true });
  });
  after(() => t.stop());

  it('reports an uninitialised server and answers logical requests with 503', async () => {
    assert.deepEqual((await call('GET', 'sys/init')).body, { initialized: false });
    const health = await call('GET', 'sys/health');
    assert.equal(health.status, 501);
    assert.equal(health.body.initialized, false);
    assert.equal((await call('GET', 'sys/health?uninitcode=299')).status, 299);
    const kv = await call('GET', 'secret/data/x', undefined, 'anything');
    assert.equal(kv.status, 503);
    assert.deepEqual(kv.body, { errors: ['Vault is sealed'] });
  });

  it('refuses invalid share settings with the established messages', async () => {
    const cases: Array<[number, number, string]> = [
      [0, 0, 'shares must be at least one'],
      [3, 0, 'threshold must be at least one'],
      [3, 1, 'threshold must be greater than one for multiple shares'],
      [256, 2, 'shares must be less than 256'],
      [3, 4, 'threshold cannot be larger than shares'],
    ];
    for (const [secret_shares, secret_threshold, message] of cases) {
      const res = await call('PUT', 'sys/init', { secret_shares, secret_threshold });
      assert.equal(res.status, 400, message);
      assert.deepEqual(res.body, { errors: [message] });
    }
  });

  it('initialises with 5 shares and threshold 3 and stays sealed', async () => {
    const res = await call('PUT', 'sys/init', { secret_shares: 5, secret_threshold: 3 });
    assert.equal(res.status, 200);
    keys = res.body;
    assert.equal(keys.keys.length, 5);
    for (const k of keys.keys) assert.match(k, /^[0-9a-f]{66}$/);
    assert.deepEqual(
      keys.keys_base64.map((k) => Buffer.from(k, 'base64').toString('hex')),
      keys.keys,
    );
    assert.match(keys.root_token, /^hvs\.[0-9A-Za-z]{24}$/);
    const again = await call('PUT', 'sys/init', { secret_shares: 1, secret_threshold: 1 });
    assert.deepEqual(again.body, { errors: ['Vault is already initialized'] });
    const status = (await call('GET', 'sys/seal-status')).body;
    assert.equal(status.sealed, true);
    assert.equal(status.t, 3);
    assert.equal(status.n, 5);
    assert.equal(status.progress, 0);
    assert.equal(status.cluster_id, undefined);
    assert.equal((await call('GET', 'sys/health')).status, 503);
    assert.equal((await call('GET', 'sys/health?sealedcode=200')).status, 200);
    assert.equal((await call('GET', 'secret/data/x', undefined, keys.root_token)).status, 503);
  });

  it('counts unseal progress, ignores a repeated share, and resets on request', async () => {
    const first = await call('PUT', 'sys/unseal', { key: keys.keys[0] });
    assert.equal(first.body.progress, 1);
    assert.match(first.body.nonce, /^[0-9a-f-]{36}$/);
    const repeat = await call('PUT', 'sys/unseal', { key: keys.keys_base64[0] });
    assert.equal(repeat.body.progress, 1);
    const reset = await call('PUT', 'sys/unseal', { reset: true });
    assert.equal(reset.body.progress, 0);
    assert.equal(reset.body.nonce, '');
  });

  it('refuses malformed keys', async () => {
    const missing = await call('PUT', 'sys/unseal', {});
    assert.deepEqual(missing.body, {
      errors: ["'key' must be specified in request body as JSON, or 'reset' set to true"],
    });
    const garbage = await call('PUT', 'sys/unseal', { key: '***' });
    assert.deepEqual(garbage.body, { errors: ["'key' must be a valid hex or base64 string"] });
  });

  it('rejects a wrong combination of shares and starts over', async () => {
    const forged = Buffer.from(keys.keys[0] as string, 'hex');
    forged[0] = (forged[0] ?? 0) ^ 0xff;
    await call('PUT', 'sys/unseal', { key: forged.toString('hex') });
    await call('PUT', 'sys/unseal', { key: keys.keys[1] });
    const res = await call('PUT', 'sys/unseal', { key: keys.keys[2] });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0], /^invalid key: /);
    assert.equal((await call('GET', 'sys/seal-status')).body.progress, 0);
  });

  it('unseals with any three of the five shares, hex or base64', async () => {
    await call('PUT', 'sys/unseal', { key: keys.keys[4] });
    await call('PUT', 'sys/unseal', { Key: keys.keys_base64[2] });
    const done = await call('PUT', 'sys/unseal', { key: keys.keys[0] });
    assert.equal(done.status, 200);
    assert.equal(done.body.sealed, false);
    assert.equal(done.body.progress, 0);
    assert.match(done.body.cluster_id, /^[0-9a-f-]{36}$/);
    const health = await call('GET', 'sys/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.sealed, false);
    assert.equal(typeof health.body.server_time_utc, 'number');
    assert.equal((await call('GET', 'sys/health?activecode=204')).status, 204);
    assert.equal((await call('GET', 'sys/health?activecode=abc')).status, 400);
    const leader = await call('GET', 'sys/leader');
    assert.equal(leader.body.ha_enabled, false);
    const reset = await call('PUT', 'sys/unseal', { reset: true });
    assert.deepEqual(reset.body, { errors: ['vault is unsealed'] });
  });

  it('serves KV version 1 at secret/ after a real (non-dev) initialisation', async () => {
    const w = await call('POST', 'secret/a', { v: 1 }, keys.root_token);
    assert.equal(w.status, 204);
    const mounts = await call('GET', 'sys/mounts', undefined, keys.root_token);
    assert.equal(mounts.body.data['secret/'].type, 'kv');
    assert.equal(mounts.body.data['secret/'].options, null);
  });

  it('rotates the barrier key: the term grows and old data stays readable', async () => {
    const before = await call('GET', 'sys/key-status', undefined, keys.root_token);
    assert.equal(before.body.data.term, 1);
    assert.equal(before.body.term, 1, 'key-status data is also at the top level');
    assert.equal((await call('PUT', 'sys/rotate', undefined, keys.root_token)).status, 204);
    assert.equal((await call('GET', 'sys/key-status', undefined, keys.root_token)).body.data.term, 2);
    assert.deepEqual((await call('GET', 'secret/a', undefined, keys.root_token)).body.data, { v: 1 });
  });

  it('seals on request with a root token only; then everything answers 503', async () => {
    assert.equal((await call('PUT', 'sys/seal')).status, 403);
    assert.equal((await call('PUT', 'sys/seal', undefined, 'not-a-token')).status, 403);
    assert.equal((await call('PUT', 'sys/seal', undefined, keys.root_token)).status, 204);
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, true);
    assert.equal((await call('GET', 'secret/a', undefined, keys.root_token)).status, 503);
    const health = await call('HEAD', 'sys/health');
    assert.equal(health.status, 503);
    assert.equal(health.body, undefined, 'HEAD has no body');
  });
});

// Issue 18: hvac's `sys.initialize()` sends every optional field, `null` when not given; the
// established server reads null and empty PGP fields as not given.
describe('sys/init with null or empty PGP fields', () => {
  for (const pgp of [
    { pgp_keys: null, root_token_pgp_key: null },
    { pgp_keys: [], root_token_pgp_key: '' },
  ]) {
    it(`initialises with ${JSON.stringify(pgp)}`, async () => {
      const t = await startTestServer({ uninitialized: true });
      try {
        const res = await request(t.url, 'PUT', 'sys/init', {
          body: { secret_shares: 5, secret_threshold: 3, ...pgp },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.keys.length, 5);
        assert.match(res.body.root_token, /^hvs\./);
      } finally {
        await t.stop();
      }
    });
  }

  it('refuses a PGP key it cannot use with 400, leaving the server uninitialised', async () => {
    const t = await startTestServer({ uninitialized: true });
    try {
      const body = { secret_shares: 1, secret_threshold: 1, root_token_pgp_key: 'mQENBF...' };
      assert.equal((await request(t.url, 'PUT', 'sys/init', { body })).status, 400);
      assert.deepEqual((await request(t.url, 'GET', 'sys/init')).body, { initialized: false });
    } finally {
      await t.stop();
    }
  });
});
