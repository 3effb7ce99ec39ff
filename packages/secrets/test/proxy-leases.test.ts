import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cryptoRandom, FakeClock, silentLogger } from '@ward/base';
import { buildProxy, type WardProxy } from '../src/proxy/proxy.js';
import { request, startTestServer, type TestServer, withBackends } from '../src/server/testing.js';
import { createLeasingBackend, FakeUpstream } from './fakes/leasing-engine.js';

// Issue 22: a leased credential fetched twice through the proxy is issued once; the cached answer
// lives as long as its lease, and a revocation through the proxy evicts it. The server runs the
// test-only leasing engine (issue 14), so both run in this process; the proxy has its own clock.

const POLICY = `
path "fake/creds/*" { capabilities = ["read"] }
path "sys/leases/revoke" { capabilities = ["update"] }
`;

describe('ward proxy cache with leased credentials', () => {
  let dir: string;
  let upstream: FakeUpstream;
  let t: TestServer;
  let proxy: WardProxy;
  let url: string;
  const proxyClock = new FakeClock(Date.now());
  const creds = (token: string | null = null) => request(url, 'GET', 'fake/creds/app', { token });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-proxy-leases-'));
    upstream = new FakeUpstream();
    t = await startTestServer({ catalog: withBackends({ 'fake-creds': createLeasingBackend(upstream) }) });
    assert.equal((await t.request('POST', 'sys/mounts/fake', { body: { type: 'fake-creds' } })).status, 204);
    await t.request('PUT', 'sys/policies/acl/creds', { body: { policy: POLICY } });
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['creds'], ttl: '24h' } });
    await writeFile(join(dir, 'token'), created.body.auth.client_token);
    proxy = await buildProxy({
      config: {
        upstream: { address: t.url, tlsSkipVerify: false },
        listeners: [{ type: 'tcp', address: '127.0.0.1:0', tlsDisable: true, maxRequestSize: 0, isQuitEnabled: false }],
        useAutoAuthToken: true,
        autoAuth: { method: { type: 'token_file', tokenFilePath: join(dir, 'token') }, sinks: [] },
        isCacheEnabled: true,
        exitAfterAuth: false,
        logLevel: 'info',
        logJson: false,
      },
      clock: proxyClock,
      random: cryptoRandom,
      logger: silentLogger,
    });
    url = (await proxy.start())[0]?.url ?? '';
    await proxy.autoAuth?.firstToken();
  });
  after(async () => {
    await proxy.stop();
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('issues a credential once for two identical requests, and again once its lease has ended', async () => {
    const first = await creds();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    const second = await creds();
    assert.equal(second.headers.get('x-cache'), 'HIT');
    assert.deepEqual(second.body.data, first.body.data);
    assert.equal(second.body.lease_id, first.body.lease_id);
    assert.equal(upstream.live.size, 1, 'one credential upstream');

    proxyClock.advance(3600 * 1000 - 1);
    assert.equal((await creds()).headers.get('x-cache'), 'HIT', 'still within the lease');
    proxyClock.advance(1);
    const renewed = await creds();
    assert.equal(renewed.headers.get('x-cache'), 'MISS', 'the lease (1 h) is over');
    assert.notEqual(renewed.body.data.username, first.body.data.username);
  });

  it('evicts a credential whose lease is revoked through the proxy', async () => {
    const cached = await creds();
    assert.equal(cached.headers.get('x-cache'), 'HIT');
    const revoke = await request(url, 'PUT', 'sys/leases/revoke', {
      token: null,
      body: { lease_id: cached.body.lease_id },
    });
    assert.equal(revoke.status, 204);
    assert.ok(upstream.revoked.includes(cached.body.data.username));
    const fresh = await creds();
    assert.equal(fresh.headers.get('x-cache'), 'MISS');
    assert.notEqual(fresh.body.data.username, cached.body.data.username);
  });

  it('does not keep leases asked for with a token the proxy does not manage', async () => {
    const before = upstream.live.size;
    const a = await creds(t.rootToken);
    const b = await creds(t.rootToken);
    assert.deepEqual([a.headers.get('x-cache'), b.headers.get('x-cache')], ['MISS', 'MISS']);
    assert.notEqual(a.body.data.username, b.body.data.username);
    assert.equal(upstream.live.size, before + 2);
  });
});
