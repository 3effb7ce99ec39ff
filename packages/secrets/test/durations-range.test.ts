import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 3: a duration the server cannot represent must be refused where it comes in
// (400 naming the field), never stored to break later requests. The established maximum is
// Go's time.Duration: 2^63-1 nanoseconds, 2562047h47m16.854775807s.
const TOO_LONG = ['3000000000h', '2562048h', 9_223_372_037, '9223372037', 1e13];
const LONGEST = '2562047h';

describe('durations beyond the established maximum (issue 12)', () => {
  let t: TestServer;
  const post = (path: string, body: unknown) => t.request('POST', path, { body });
  const assertRefused = async (path: string, field: string, body: (v: unknown) => unknown) => {
    for (const value of TOO_LONG) {
      const res = await post(path, body(value));
      assert.equal(res.status, 400, `${path} ${field}=${value}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors[0], new RegExp(`"${field}"`));
    }
  };

  before(async () => {
    t = await startTestServer();
    assert.equal((await post('sys/auth/userpass', { type: 'userpass' })).status, 204);
  });
  after(() => t.stop());

  it('refuses them in KV config and metadata, and writes keep working', async () => {
    await assertRefused('secret/config', 'delete_version_after', (v) => ({ delete_version_after: v }));
    await assertRefused('secret/metadata/k', 'delete_version_after', (v) => ({ delete_version_after: v }));
    assert.equal((await post('secret/data/k', { data: { a: 1 } })).status, 200);
    assert.equal((await t.request('GET', 'secret/data/k')).status, 200);
  });

  it('refuses them in mount and tune settings, token creation, user and role settings', async () => {
    await assertRefused('sys/auth/userpass/tune', 'max_lease_ttl', (v) => ({ max_lease_ttl: v }));
    await assertRefused('sys/mounts/secret/tune', 'default_lease_ttl', (v) => ({ default_lease_ttl: v }));
    await assertRefused('sys/mounts/m1', 'max_lease_ttl', (v) => ({ type: 'kv', config: { max_lease_ttl: v } }));
    await assertRefused('auth/token/create', 'ttl', (v) => ({ ttl: v }));
    await assertRefused('auth/token/roles/r', 'token_max_ttl', (v) => ({ token_max_ttl: v }));
    await assertRefused('auth/userpass/users/u', 'token_ttl', (v) => ({ password: 'pw', token_ttl: v }));
    await assertRefused('sys/policies/acl/p', 'max_wrapping_ttl', (v) => ({
      policy: `path "a" {\n capabilities = ["read"]\n max_wrapping_ttl = "${v}"\n}`,
    }));
  });

  it('accepts the longest representable duration, and everything stays readable', async () => {
    assert.equal((await post('secret/config', { delete_version_after: LONGEST })).status, 204);
    assert.equal((await post('secret/data/long', { data: { a: 1 } })).status, 200);
    const read = await t.request('GET', 'secret/data/long');
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.match(read.body.data.metadata.deletion_time, /^\d{4,}-/);
    assert.equal((await t.request('GET', 'secret/metadata/long')).status, 200);

    assert.equal((await post('sys/auth/userpass/tune', { max_lease_ttl: LONGEST })).status, 204);
    await post('auth/userpass/users/longlived', { password: 'pw', token_ttl: LONGEST, token_max_ttl: LONGEST });
    const login = await t.request('POST', 'auth/userpass/login/longlived', { token: null, body: { password: 'pw' } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const token = login.body.auth.client_token as string;
    const self = await t.request('GET', 'auth/token/lookup-self', { token });
    assert.equal(self.status, 200, JSON.stringify(self.body));
    assert.equal((await t.request('POST', 'auth/token/renew-self', { token })).status, 200);
  });
});
