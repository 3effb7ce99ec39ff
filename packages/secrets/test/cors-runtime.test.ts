import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('CORS at runtime', () => {
  let t: TestServer;
  const fromOrigin = (origin: string, method = 'GET', headers: Record<string, string> = {}) =>
    t.request(method, 'sys/mounts', { headers: { Origin: origin, ...headers } });
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('does nothing while disabled', async () => {
    const res = await fromOrigin('https://evil.example');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('answers an allowed origin with its name and Vary: Origin', async () => {
    await t.request('POST', 'sys/config/cors', {
      body: { allowed_origins: ['https://app.example'], allowed_headers: ['X-Custom'] },
    });
    const res = await fromOrigin('https://app.example');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.equal(res.headers.get('vary'), 'Origin');
    const error = await t.request('GET', 'secret/data/missing', { headers: { Origin: 'https://app.example' } });
    assert.equal(error.status, 404);
    assert.equal(error.headers.get('access-control-allow-origin'), 'https://app.example', 'on errors too');
  });

  it('refuses another origin with 403 before anything else, and leaves requests without Origin alone', async () => {
    const res = await t.request('GET', 'sys/mounts', { token: null, headers: { Origin: 'https://evil.example' } });
    assert.deepEqual([res.status, res.body], [403, { errors: ['origin not allowed'] }]);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal((await t.request('GET', 'sys/mounts')).status, 200);
  });

  it('answers a preflight with the methods, headers and max age, and an empty body', async () => {
    const res = await fromOrigin('https://app.example', 'OPTIONS', {
      'Access-Control-Request-Method': 'LIST',
      'Access-Control-Request-Headers': 'X-Vault-Token',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body, undefined);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.equal(res.headers.get('access-control-allow-methods'), 'DELETE,GET,OPTIONS,POST,PUT,LIST');
    const headers = res.headers.get('access-control-allow-headers')?.split(',') ?? [];
    assert.ok(headers.includes('X-Vault-Token') && headers.includes('X-Custom'), headers.join(','));
    assert.equal(res.headers.get('access-control-max-age'), '300');
  });

  // Issue 13, point 6: a browser may send each header under both of its names.
  it('allows in a preflight every request header Ward reads, under both its X-Vault- and X-Service- names', async () => {
    const res = await fromOrigin('https://app.example', 'OPTIONS', { 'Access-Control-Request-Method': 'GET' });
    const allowed = new Set(res.headers.get('access-control-allow-headers')?.split(','));
    for (const name of ['Token', 'Namespace', 'Request', 'Wrap-TTL', 'Wrap-Format', 'MFA', 'Policy-Override']) {
      for (const prefix of ['X-Vault-', 'X-Service-']) assert.ok(allowed.has(`${prefix}${name}`), `${prefix}${name}`);
    }
  });

  it('refuses a preflight for a method outside the list with 405', async () => {
    const res = await fromOrigin('https://app.example', 'OPTIONS', { 'Access-Control-Request-Method': 'PATCH' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('allows any origin with the wildcard, echoing the origin', async () => {
    await t.request('POST', 'sys/config/cors', { body: { allowed_origins: '*' } });
    const res = await fromOrigin('https://anything.example');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://anything.example');
  });

  it('applies to a sealed server (the setting stays in memory)', async () => {
    await t.server.core.seal();
    const res = await t.request('GET', 'sys/seal-status', { headers: { Origin: 'https://ui.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://ui.example');
    await t.server.core.submitUnsealKey(t.unsealKey);
  });
});
