import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer, type TestServerOptions, withBackends } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';
import { createLeasingBackend, FakeUpstream } from './fakes/leasing-engine.js';

// Issue 14: engines declare secret types (`BackendSpec.secrets`); a handler returning
// `{ secret }` gets a lease the core mints, limits, registers and later renews and revokes
// through the engine with the data stored at issue.

const LEASE_ID = /^fake\/creds\/app\/[0-9A-Za-z]{24}$/;

async function start(upstream: FakeUpstream, options: TestServerOptions = {}) {
  const t = await startTestServer({
    ...options,
    catalog: withBackends({ 'fake-creds': createLeasingBackend(upstream) }),
  });
  if (!options.reopen) {
    assert.equal((await t.request('POST', 'sys/mounts/fake', { body: { type: 'fake-creds' } })).status, 204);
  }
  return t;
}

describe('secret leases', () => {
  let clock: FakeClock;
  let upstream: FakeUpstream;
  let t: TestServer;
  beforeEach(async () => {
    clock = new FakeClock('2024-01-01T00:00:00Z');
    upstream = new FakeUpstream();
    t = await start(upstream, { clock });
  });
  afterEach(() => t.stop());

  const expire = async (ms: number) => {
    clock.advance(ms);
    await t.server.core.expiration.settled();
  };

  it('leases a credential: the core mints the id, and the envelope carries TTL and renewable', async () => {
    const res = await t.request('GET', 'fake/creds/app');
    assert.equal(res.status, 200);
    assert.match(res.body.lease_id, LEASE_ID);
    assert.equal(res.body.lease_duration, 3600);
    assert.equal(res.body.renewable, true);
    assert.equal(upstream.live.get(res.body.data.username), res.body.data.password);
    const lookup = await t.request('PUT', 'sys/leases/lookup', { body: { lease_id: res.body.lease_id } });
    assert.equal(lookup.body.data.ttl, 3600);
    assert.equal(lookup.body.data.renewable, true);
  });

  it('caps the TTL by the type’s max and the mount’s max, with a warning', async () => {
    const long = await t.request('GET', 'fake/creds/app?ttl=5h');
    assert.equal(long.body.lease_duration, 7200);
    assert.deepEqual(long.body.warnings, [
      'TTL of "5h0m0s" exceeded the effective max_ttl of "2h0m0s"; TTL value is capped accordingly',
    ]);
    await t.request('POST', 'sys/mounts/fake/tune', { body: { max_lease_ttl: '10m' } });
    assert.equal((await t.request('GET', 'fake/creds/app')).body.lease_duration, 600);
    assert.equal((await t.request('GET', 'fake/creds/app?ttl=1m')).body.lease_duration, 60);
  });

  it('renews through the engine, which decides the TTL; a type without renew is not renewable', async () => {
    const { body } = await t.request('GET', 'fake/creds/app');
    upstream.renewTtlSeconds = 1800;
    const renewed = await t.request('PUT', 'sys/leases/renew', { body: { lease_id: body.lease_id, increment: 600 } });
    assert.equal(renewed.status, 200);
    assert.equal(renewed.body.lease_duration, 1800);
    assert.deepEqual(upstream.renewals, [{ username: body.data.username, incrementSeconds: 600 }]);

    const fixed = await t.request('GET', 'fake/static/app');
    assert.equal(fixed.body.renewable, false);
    const refused = await t.request('PUT', 'sys/leases/renew', { body: { lease_id: fixed.body.lease_id } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, ['lease is not renewable']);
  });

  it('revoke and revoke-prefix end the credential upstream', async () => {
    const a = (await t.request('GET', 'fake/creds/app')).body;
    const b = (await t.request('GET', 'fake/creds/app')).body;
    const c = (await t.request('GET', 'fake/static/other')).body;
    assert.equal((await t.request('PUT', 'sys/leases/revoke', { body: { lease_id: a.lease_id } })).status, 204);
    assert.deepEqual(upstream.revoked, [a.data.username]);
    assert.equal((await t.request('PUT', 'sys/leases/revoke-prefix/fake')).status, 204);
    assert.deepEqual(upstream.revoked.sort(), [a.data.username, b.data.username, c.data.username].sort());
    assert.equal(upstream.live.size, 0);
  });

  it('expiry revokes upstream; a failed revocation is retried with backoff', async () => {
    const { body } = await t.request('GET', 'fake/creds/app');
    upstream.failRevocations = 1;
    await expire(3600_000);
    assert.equal(upstream.revokeAttempts, 1);
    assert.ok(upstream.live.has(body.data.username), 'still there after the failed attempt');
    const lookup = await t.request('PUT', 'sys/leases/lookup', { body: { lease_id: body.lease_id } });
    assert.equal(lookup.body.data.revoke_error, 'upstream unavailable');
    await expire(15_000); // first retry: 10 s × a jitter in [0.5, 1.5)
    assert.equal(upstream.revokeAttempts, 2);
    assert.deepEqual(upstream.revoked, [body.data.username]);
  });

  it('unmounting revokes every lease of the mount through the engine first', async () => {
    await t.request('GET', 'fake/creds/app');
    await t.request('GET', 'fake/static/app');
    assert.equal((await t.request('DELETE', 'sys/mounts/fake')).status, 204);
    assert.equal(upstream.live.size, 0);
    assert.equal(upstream.revoked.length, 2);
  });

  it('revoking the token that obtained a credential revokes the credential', async () => {
    await t.request('PUT', 'sys/policies/acl/creds', { body: { policy: 'path "fake/*" { capabilities = ["read"] }' } });
    const token = (await t.request('POST', 'auth/token/create', { body: { policies: ['creds'] } })).body.auth
      .client_token;
    const res = await t.request('GET', 'fake/creds/app', { token });
    assert.equal(res.status, 200);
    assert.equal((await t.request('POST', 'auth/token/revoke', { body: { token } })).status, 204);
    assert.deepEqual(upstream.revoked, [res.body.data.username]);
  });

  it('leases in a namespace under the namespace path; deleting the mount there revokes them', async () => {
    assert.equal((await t.request('POST', 'sys/namespaces/ns1')).status, 200);
    const inNs1 = { 'X-Vault-Namespace': 'ns1' };
    await t.request('POST', 'sys/mounts/fake', { headers: inNs1, body: { type: 'fake-creds' } });
    const res = await t.request('GET', 'fake/creds/app', { headers: inNs1 });
    assert.match(res.body.lease_id, /^ns1\/fake\/creds\/app\/[0-9A-Za-z]{24}$/);
    const rootLease = (await t.request('GET', 'fake/creds/app')).body;
    assert.equal((await t.request('DELETE', 'sys/mounts/fake', { headers: inNs1 })).status, 204);
    assert.deepEqual(upstream.revoked, [res.body.data.username], 'only the namespace’s lease');
    assert.ok(upstream.live.has(rootLease.data.username));
  });

  it('answers in process as over HTTP (core.handleRequest)', async () => {
    const response = await t.server.core.handleRequest({
      id: 'in-process',
      operation: 'read',
      path: 'fake/creds/app',
      data: {},
      clientToken: t.rootToken,
      remoteAddress: '127.0.0.1',
      namespace: '',
    });
    assert.match(response?.lease?.leaseId ?? '', LEASE_ID);
    assert.equal(response?.lease?.leaseDurationSeconds, 3600);
    assert.equal(response?.secret, undefined, 'the issued secret is replaced by data and lease');
    assert.ok(upstream.live.has(String(response?.data?.username)));
  });
});

describe('secret leases across a restart', () => {
  it('revokes with the internal data stored at issue, after the server restarted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-leases-'));
    const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const upstream = new FakeUpstream();
    try {
      const first = await start(upstream, { storage, clock });
      const { body } = await first.request('GET', 'fake/creds/app');
      await first.stop();
      const second = await start(upstream, {
        storage,
        clock,
        reopen: { unsealKey: first.unsealKey, rootToken: first.rootToken },
      });
      try {
        const res = await second.request('PUT', 'sys/leases/revoke', { body: { lease_id: body.lease_id } });
        assert.equal(res.status, 204);
        assert.deepEqual(upstream.revoked, [body.data.username]);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
