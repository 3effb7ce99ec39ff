import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '@ward/secrets-client';
import { parseConfig } from '../src/server/config.js';
import { nodeRequest, startTestServer, type TestServer } from '../src/server/testing.js';

const MISSING = { errors: ['missing "X-Vault-Request" header'] };

/** With node:http, a header given a list of values goes out once per value (fetch would join them). */
function rawGet(url: string, path: string, headers: Record<string, string | string[]>) {
  const { hostname, port } = new URL(url);
  return nodeRequest({ hostname, port, path: `/v1/${path}`, method: 'GET', headers });
}

describe('require_request_header on a listener', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ listener: { requireRequestHeader: true } });
  });
  after(() => t.stop());

  it('refuses a request without the header with 412', async () => {
    const res = await t.request('GET', 'sys/mounts');
    assert.deepEqual([res.status, res.body], [412, MISSING]);
    const health = await t.request('GET', 'sys/health', { token: null });
    assert.equal(health.status, 412, 'unauthenticated endpoints too');
  });

  it('refuses a value other than true, and the header sent twice', async () => {
    const wrong = await t.request('GET', 'sys/mounts', { headers: { 'X-Vault-Request': 'yes' } });
    assert.deepEqual([wrong.status, wrong.body], [412, MISSING]);
    const twice = await rawGet(t.url, 'sys/mounts', {
      'X-Vault-Token': t.rootToken,
      'X-Vault-Request': ['true', 'true'],
    });
    assert.deepEqual([twice.status, twice.body], [412, MISSING]);
  });

  it('serves a request with X-Vault-Request: true or X-Service-Request: true', async () => {
    assert.equal((await t.request('GET', 'sys/mounts', { headers: { 'X-Vault-Request': 'true' } })).status, 200);
    assert.equal((await t.request('GET', 'sys/mounts', { headers: { 'X-Service-Request': 'true' } })).status, 200);
  });

  // Issue 22: the check read headersDistinct after the listener had taken the LIST marker out of
  // rawHeaders, and Node then walked past the end of the shortened list (500).
  it('serves a LIST request with the header', async () => {
    const client = createClient({ address: t.url, token: t.rootToken });
    await client.write('secret/data/listed', { data: { k: 'v' } });
    assert.deepEqual((await client.list('secret/metadata/'))?.data?.keys, ['listed']);
  });

  it('serves the API client (and so the CLI built on it), which always sends the header', async () => {
    const client = createClient({ address: t.url, token: t.rootToken });
    assert.ok(await client.read('sys/mounts'));
  });
});

describe('a listener without require_request_header', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('ignores the header (established servers treat it as a client-side guard)', async () => {
    assert.equal((await t.request('GET', 'sys/mounts')).status, 200);
  });
});

describe('require_request_header in the configuration file', () => {
  const doc = (listener: Record<string, unknown>) => ({
    storage: { inmem: [{}] },
    listener: { tcp: [{ address: '127.0.0.1:8200', tls_disable: true, ...listener }] },
  });

  it('is read from the tcp listener block (HCL booleans or strings), off by default', () => {
    assert.equal(parseConfig(doc({ require_request_header: true })).listeners[0]?.requireRequestHeader, true);
    assert.equal(parseConfig(doc({ require_request_header: 'true' })).listeners[0]?.requireRequestHeader, true);
    assert.equal(parseConfig(doc({ require_request_header: false })).listeners[0]?.requireRequestHeader, false);
    assert.equal(parseConfig(doc({})).listeners[0]?.requireRequestHeader, false);
  });
});
