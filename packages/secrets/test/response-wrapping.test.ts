import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 13, point 5: response wrapping as established. A request with X-Vault-Wrap-TTL (or
// X-Service-Wrap-TTL) gets only wrap_info; the response waits in the cubbyhole of a single-use token.

const WRAP = { 'X-Vault-Wrap-TTL': '5m' };
const INVALID = ['wrapping token is not valid or does not exist'];

describe('response wrapping', () => {
  let t: TestServer;
  let clock: FakeClock;
  before(async () => {
    clock = new FakeClock('2030-01-01T00:00:00Z');
    t = await startTestServer({ clock });
    await t.request('POST', 'secret/data/app', { body: { data: { password: 'p4ss' } } });
  });
  after(() => t.stop());

  it('wraps a read: wrap_info only, and the wrapping token unwraps once to the response as it was', async () => {
    const wrapped = await t.request('GET', 'secret/data/app', { headers: WRAP });
    assert.equal(wrapped.status, 200);
    assert.equal(wrapped.body.data, null);
    const info = wrapped.body.wrap_info;
    assert.match(info.token, /^hvs\./);
    assert.equal(typeof info.accessor, 'string');
    assert.equal(info.ttl, 300);
    assert.equal(info.creation_time, '2030-01-01T00:00:00Z');
    assert.equal(info.creation_path, 'secret/data/app');
    assert.equal(info.wrapped_accessor, undefined, 'nothing but a token has an accessor to show');

    const unwrapped = await t.request('POST', 'sys/wrapping/unwrap', { token: info.token });
    assert.equal(unwrapped.status, 200);
    assert.equal(unwrapped.body.request_id, wrapped.body.request_id, 'the response of the wrapped request');
    assert.deepEqual(unwrapped.body.data.data, { password: 'p4ss' });
    assert.equal(unwrapped.body.wrap_info, null);

    const again = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: info.token } });
    assert.deepEqual([again.status, again.body.errors], [400, INVALID]);
  });

  it('a spent wrapping token sent as the caller’s own token is an invalid wrapping token (400), as established', async () => {
    const info = (await t.request('GET', 'secret/data/app', { headers: WRAP })).body.wrap_info;
    assert.equal((await t.request('POST', 'sys/wrapping/unwrap', { token: info.token })).status, 200);
    for (const path of ['sys/wrapping/unwrap', 'sys/wrapping/rewrap']) {
      const again = await t.request('POST', path, { token: info.token });
      assert.deepEqual([again.status, again.body.errors], [400, INVALID], path);
    }
    // A refused token that names another wrapping token in the body is just a refused token.
    const other = (await t.request('GET', 'secret/data/app', { headers: WRAP })).body.wrap_info;
    const refused = await t.request('POST', 'sys/wrapping/unwrap', { token: info.token, body: { token: other.token } });
    assert.equal(refused.status, 403);
    assert.equal((await t.request('GET', 'secret/data/app', { token: info.token })).status, 403, 'elsewhere: 403');
  });

  it('takes X-Service-Wrap-TTL as well, and refuses a negative TTL', async () => {
    const wrapped = await t.request('GET', 'secret/data/app', { headers: { 'X-Service-Wrap-TTL': '90' } });
    assert.equal(wrapped.body.wrap_info.ttl, 90);
    const negative = await t.request('GET', 'secret/data/app', { headers: { 'X-Vault-Wrap-TTL': '-1m' } });
    assert.equal(negative.status, 400);
  });

  it('wraps a new token: wrapped_accessor is its accessor, and the unwrapped token works', async () => {
    const wrapped = await t.request('POST', 'auth/token/create', { headers: WRAP, body: { policies: ['default'] } });
    assert.equal(wrapped.body.auth, null);
    const info = wrapped.body.wrap_info;
    assert.equal(info.creation_path, 'auth/token/create');
    // Unwrapped by another token, naming the wrapping token in the body.
    const unwrapped = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: info.token } });
    assert.equal(unwrapped.body.auth.accessor, info.wrapped_accessor);
    const self = await t.request('GET', 'auth/token/lookup-self', { token: unwrapped.body.auth.client_token });
    assert.equal(self.status, 200);
  });

  it('looks a wrapping token up without spending it; the lookup needs no other token', async () => {
    const info = (await t.request('GET', 'secret/data/app', { headers: WRAP })).body.wrap_info;
    for (let i = 0; i < 2; i++) {
      const lookup = await t.request('POST', 'sys/wrapping/lookup', { token: null, body: { token: info.token } });
      assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
      assert.deepEqual(lookup.body.data, {
        creation_path: 'secret/data/app',
        creation_time: '2030-01-01T00:00:00Z',
        creation_ttl: 300,
      });
    }
    assert.equal((await t.request('POST', 'sys/wrapping/unwrap', { token: info.token })).status, 200);
    const gone = await t.request('POST', 'sys/wrapping/lookup', { token: null, body: { token: info.token } });
    assert.deepEqual([gone.status, gone.body.errors], [400, INVALID]);
  });

  it('wraps arbitrary data with sys/wrapping/wrap, which insists on a wrap TTL', async () => {
    const wrapped = await t.request('POST', 'sys/wrapping/wrap', { headers: WRAP, body: { a: 'b', n: 1 } });
    assert.equal(wrapped.body.wrap_info.creation_path, 'sys/wrapping/wrap');
    const unwrapped = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: wrapped.body.wrap_info.token } });
    assert.deepEqual(unwrapped.body.data, { a: 'b', n: 1 });
    const unwrappedEnvelopeIsNew = unwrapped.body.request_id !== wrapped.body.request_id;
    assert.ok(unwrappedEnvelopeIsNew, 'wrapped data comes back in a response of its own');
    const refused = await t.request('POST', 'sys/wrapping/wrap', { body: { a: 'b' } });
    assert.deepEqual(refused.body.errors, ['endpoint requires response wrapping to be used']);
  });

  it('wraps an empty object too, as established (hvac wraps `{}` when given no payload)', async () => {
    const wrapped = await t.request('POST', 'sys/wrapping/wrap', { headers: WRAP, body: {} });
    assert.equal(wrapped.status, 200, JSON.stringify(wrapped.body));
    assert.equal(wrapped.body.wrap_info.ttl, 300);
    const unwrapped = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: wrapped.body.wrap_info.token } });
    assert.equal(unwrapped.status, 200);
    assert.deepEqual(unwrapped.body.data ?? {}, {});
  });

  it('rewraps into a new token with the same TTL; the old one is spent', async () => {
    const old = (await t.request('GET', 'secret/data/app', { headers: { 'X-Vault-Wrap-TTL': '10m' } })).body.wrap_info;
    const rewrapped = await t.request('POST', 'sys/wrapping/rewrap', { body: { token: old.token } });
    const fresh = rewrapped.body.wrap_info;
    assert.notEqual(fresh.token, old.token);
    assert.deepEqual([fresh.ttl, fresh.creation_path], [600, 'secret/data/app']);
    assert.equal((await t.request('POST', 'sys/wrapping/unwrap', { body: { token: old.token } })).status, 400);
    const unwrapped = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: fresh.token } });
    assert.deepEqual(unwrapped.body.data.data, { password: 'p4ss' });
  });

  it('a wrapping token can do nothing but unwrap, and expires with its TTL', async () => {
    const info = (await t.request('GET', 'secret/data/app', { headers: { 'X-Vault-Wrap-TTL': '1m' } })).body.wrap_info;
    assert.equal((await t.request('GET', 'secret/data/app', { token: info.token })).status, 403);
    const other = (await t.request('GET', 'secret/data/app', { headers: { 'X-Vault-Wrap-TTL': '1m' } })).body.wrap_info;
    clock.advance(61_000);
    const expired = await t.request('POST', 'sys/wrapping/unwrap', { body: { token: other.token } });
    assert.deepEqual([expired.status, expired.body.errors], [400, INVALID]);
  });

  it('a policy with max_wrapping_ttl demands wrapping within its bound', async () => {
    const policy = 'path "secret/data/app" {\n  capabilities = ["read"]\n  max_wrapping_ttl = "2m"\n}\n';
    assert.equal((await t.request('PUT', 'sys/policies/acl/wrapped-only', { body: { policy } })).status, 204);
    const token = (await t.request('POST', 'auth/token/create', { body: { policies: ['wrapped-only'] } })).body.auth
      .client_token;
    assert.equal((await t.request('GET', 'secret/data/app', { token })).status, 403, 'not wrapped');
    assert.equal((await t.request('GET', 'secret/data/app', { token, headers: WRAP })).status, 403, 'too long');
    const ok = await t.request('GET', 'secret/data/app', { token, headers: { 'X-Vault-Wrap-TTL': '1m' } });
    assert.equal(ok.status, 200);
    assert.ok(ok.body.wrap_info.token);
  });
});

describe('response wrapping in the audit log', () => {
  it('records the wrapping token hashed, never in clear', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-wrap-audit-'));
    const t = await startTestServer();
    after(async () => {
      await t.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const log = join(dir, 'audit.log');
    await t.request('POST', 'sys/audit/file', { body: { type: 'file', options: { file_path: log } } });
    const info = (await t.request('POST', 'sys/wrapping/wrap', { headers: WRAP, body: { a: 'b' } })).body.wrap_info;
    const text = await readFile(log, 'utf8');
    assert.ok(!text.includes(info.token), 'the wrapping token is not in the log');
    const entry = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((e) => e.type === 'response' && e.request.path === 'sys/wrapping/wrap');
    assert.match(entry.response.wrap_info.token, /^hmac-sha256:/);
    assert.equal(entry.response.wrap_info.creation_path, 'sys/wrapping/wrap');
  });
});

describe('the cubbyhole engine', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  const newToken = async () =>
    (await t.request('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth
      .client_token as string;

  it('is listed in sys/mounts at cubbyhole/ as established', async () => {
    const mount = (await t.request('GET', 'sys/mounts')).body.data['cubbyhole/'];
    assert.deepEqual(
      [mount.type, mount.description, mount.local],
      ['cubbyhole', 'per-token private secret storage', true],
    );
    assert.match(mount.accessor, /^cubbyhole_[0-9a-f]{8}$/);
  });

  it("keeps each token's secrets to itself, even from root", async () => {
    const alice = await newToken();
    const bob = await newToken();
    assert.equal((await t.request('POST', 'cubbyhole/app/key', { token: alice, body: { v: 'alice' } })).status, 204);
    assert.equal((await t.request('POST', 'cubbyhole/app/key', { token: bob, body: { v: 'bob' } })).status, 204);
    assert.deepEqual((await t.request('GET', 'cubbyhole/app/key', { token: alice })).body.data, { v: 'alice' });
    assert.deepEqual((await t.request('GET', 'cubbyhole/app/key', { token: bob })).body.data, { v: 'bob' });
    assert.equal((await t.request('GET', 'cubbyhole/app/key')).status, 404, 'root has a cubbyhole of its own');
    assert.deepEqual((await t.request('LIST', 'cubbyhole/app', { token: alice })).body.data.keys, ['key']);
    assert.equal((await t.request('DELETE', 'cubbyhole/app/key', { token: bob })).status, 204);
    assert.equal((await t.request('GET', 'cubbyhole/app/key', { token: bob })).status, 404);
    assert.deepEqual((await t.request('GET', 'cubbyhole/app/key', { token: alice })).body.data, { v: 'alice' });
  });

  it('is destroyed with its token', async () => {
    const carol = await newToken();
    await t.request('POST', 'cubbyhole/secret', { token: carol, body: { v: 1 } });
    const storage = t.server.core.barrier;
    const stored = async () => (await storage.list('logical/00000000-0000-4000-8000-000000000003/')).length;
    const before = await stored();
    assert.ok(before > 0);
    await t.request('POST', 'auth/token/revoke', { body: { token: carol } });
    assert.equal(await stored(), before - 1, "the revoked token's cubbyhole is gone from storage");
  });
});
