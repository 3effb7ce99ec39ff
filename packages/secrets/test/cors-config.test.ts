import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const STANDARD = [
  'Content-Type',
  'X-Requested-With',
  'X-Vault-AWS-IAM-Server-ID',
  'X-Vault-MFA',
  'X-Vault-No-Request-Forwarding',
  'X-Vault-Wrap-Format',
  'X-Vault-Wrap-TTL',
  'X-Vault-Policy-Override',
  'Authorization',
  'X-Vault-Token',
  // Ward's additions (issue 13, point 6): the namespace and request headers, and every name in its X-Service- form.
  'X-Vault-Namespace',
  'X-Vault-Request',
  'X-Service-AWS-IAM-Server-ID',
  'X-Service-MFA',
  'X-Service-No-Request-Forwarding',
  'X-Service-Wrap-Format',
  'X-Service-Wrap-TTL',
  'X-Service-Policy-Override',
  'X-Service-Token',
  'X-Service-Namespace',
  'X-Service-Request',
];

describe('sys/config/cors', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('reads as disabled on a new server', async () => {
    const res = await t.request('GET', 'sys/config/cors');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { enabled: false });
    assert.equal(res.body.enabled, false, 'copied to the top level');
  });

  it('enables a list of origins and adds the given headers to the standard ones', async () => {
    const res = await t.request('POST', 'sys/config/cors', {
      body: { allowed_origins: ['https://a.example', 'https://b.example'], allowed_headers: ['X-Custom'] },
    });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const read = await t.request('GET', 'sys/config/cors');
    assert.deepEqual(read.body.data, {
      enabled: true,
      allowed_origins: ['https://a.example', 'https://b.example'],
      allowed_headers: [...STANDARD, 'X-Custom'],
    });
  });

  it('takes a comma-separated string or the wildcard', async () => {
    await t.request('POST', 'sys/config/cors', { body: { allowed_origins: 'https://a.example, https://c.example' } });
    assert.deepEqual((await t.request('GET', 'sys/config/cors')).body.data.allowed_origins, [
      'https://a.example',
      'https://c.example',
    ]);
    assert.equal((await t.request('POST', 'sys/config/cors', { body: { allowed_origins: '*' } })).status, 204);
    const read = (await t.request('GET', 'sys/config/cors')).body.data;
    assert.deepEqual([read.allowed_origins, read.allowed_headers], [['*'], STANDARD]);
  });

  it('refuses no origin, and a wildcard with other origins', async () => {
    const none = await t.request('POST', 'sys/config/cors', { body: { allowed_headers: ['X-A'] } });
    assert.deepEqual(
      [none.status, none.body],
      [400, { errors: ['at least one origin or the wildcard must be provided'] }],
    );
    const mixed = await t.request('POST', 'sys/config/cors', { body: { allowed_origins: ['*', 'https://a.example'] } });
    assert.deepEqual(
      [mixed.status, mixed.body],
      [400, { errors: ["to allow all origins the '*' must be the only value for allowed_origins"] }],
    );
    assert.deepEqual((await t.request('GET', 'sys/config/cors')).body.data.allowed_origins, ['*'], 'unchanged');
  });

  it('needs sudo', async () => {
    await t.request('PUT', 'sys/policies/acl/cors', {
      body: { policy: 'path "sys/config/cors" { capabilities = ["read", "update", "delete"] }' },
    });
    const token = (await t.request('POST', 'auth/token/create', { body: { policies: ['cors'] } })).body.auth
      .client_token;
    assert.equal((await t.request('GET', 'sys/config/cors', { token })).status, 403);
    assert.equal((await t.request('DELETE', 'sys/config/cors', { token })).status, 403);
  });

  it('persists behind the barrier across seal and unseal', async () => {
    await t.request('POST', 'sys/config/cors', { body: { allowed_origins: ['https://kept.example'] } });
    await t.server.core.seal();
    await t.server.core.submitUnsealKey(t.unsealKey);
    assert.deepEqual((await t.request('GET', 'sys/config/cors')).body.data.allowed_origins, ['https://kept.example']);
  });

  it('disables with DELETE', async () => {
    assert.equal((await t.request('DELETE', 'sys/config/cors')).status, 204);
    assert.deepEqual((await t.request('GET', 'sys/config/cors')).body.data, { enabled: false });
  });
});
