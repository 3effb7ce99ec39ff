import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cryptoRandom, FakeClock, silentLogger } from '@ward/base';
import { nodeRequest, request, startTestServer, type TestServer } from '../server/testing.js';
import type { ProxyConfig } from './config.js';
import { buildProxy, type WardProxy } from './proxy.js';

/** One request over a Unix socket; `fetch` cannot reach one. */
function overSocket(socketPath: string, method: string, path: string, headers: Record<string, string>) {
  return nodeRequest({ socketPath, method, path, headers });
}

describe('ward proxy with use_auto_auth_token = "force", on TCP and a Unix socket', () => {
  let dir: string;
  let t: TestServer;
  let proxy: WardProxy;
  let tcpUrl: string;
  let socketPath: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-proxy-force-'));
    socketPath = join(dir, 'proxy.sock');
    t = await startTestServer();
    await t.request('PUT', 'sys/policies/acl/reader', {
      body: {
        policy:
          'path "secret/data/shared" { capabilities = ["read"] }\npath "secret/metadata/" { capabilities = ["list"] }',
      },
    });
    await t.request('POST', 'secret/data/shared', { body: { data: { k: 'shared' } } });
    await t.request('POST', 'secret/data/private', { body: { data: { k: 'private' } } });
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['reader'], ttl: '1h' } });
    await writeFile(join(dir, 'token'), created.body.auth.client_token);
    const listener = { address: '127.0.0.1:0', tlsDisable: true, maxRequestSize: 0, isQuitEnabled: false };
    const config: ProxyConfig = {
      upstream: { address: t.url, tlsSkipVerify: false },
      listeners: [
        { ...listener, type: 'tcp' },
        { ...listener, type: 'unix', address: socketPath },
      ],
      useAutoAuthToken: 'force',
      autoAuth: { method: { type: 'token_file', tokenFilePath: join(dir, 'token') }, sinks: [] },
      isCacheEnabled: false,
      exitAfterAuth: false,
      logLevel: 'info',
      logJson: false,
    };
    proxy = await buildProxy({ config, clock: new FakeClock(Date.now()), random: cryptoRandom, logger: silentLogger });
    const addresses = await proxy.start();
    tcpUrl = addresses[0]?.url ?? '';
    assert.equal(addresses[1]?.url, `unix://${socketPath}`);
  });
  after(async () => {
    await proxy.stop();
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("replaces the client's token with its own, so a root token gains nothing through it", async () => {
    const shared = await request(tcpUrl, 'GET', 'secret/data/shared', { token: t.rootToken });
    assert.deepEqual(shared.body.data.data, { k: 'shared' });
    const denied = await request(tcpUrl, 'GET', 'secret/data/private', { token: t.rootToken });
    assert.equal(denied.status, 403);
    const bearer = await request(tcpUrl, 'GET', 'secret/data/private', {
      token: null,
      headers: { Authorization: `Bearer ${t.rootToken}` },
    });
    assert.equal(bearer.status, 403, 'an Authorization: Bearer token is replaced too');
  });

  it('serves the same API on its Unix socket', async () => {
    const res = await overSocket(socketPath, 'GET', '/v1/secret/data/shared', {});
    assert.equal(res.status, 200);
    assert.deepEqual((res.body as { data: { data: unknown } }).data.data, { k: 'shared' });
    const list = await overSocket(socketPath, 'LIST', '/v1/secret/metadata/', {});
    assert.deepEqual((list.body as { data: { keys: string[] } }).data.keys, ['private', 'shared']);
  });
});
