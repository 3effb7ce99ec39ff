import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 13, point 4: a verb a list-only path does not offer answers 405 with or without the
// trailing slash, as established servers (whose list patterns end in `/?`) do; not 404.

describe('a wrong verb on a list-only path answers 405', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    assert.equal((await t.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } })).status, 204);
  });
  after(() => t.stop());

  const cases: Array<[string, string]> = [
    ['GET', 'auth/userpass/users'],
    ['POST', 'auth/userpass/users'],
    ['DELETE', 'auth/userpass/users'],
    ['GET', 'identity/entity/id'],
    ['POST', 'identity/entity/id'],
    ['GET', 'identity/entity/name'],
    ['GET', 'totp/keys'],
    ['POST', 'totp/keys'],
  ];
  for (const [method, path] of cases) {
    for (const suffix of ['', '/']) {
      if (method !== 'GET' && suffix === '/') continue; // a write to a path ending in '/' is refused first
      it(`${method} ${path}${suffix}`, async () => {
        const res = await t.request(method, `${path}${suffix}`);
        assert.equal(res.status, 405, JSON.stringify(res.body));
        assert.ok(Array.isArray(res.body.errors));
      });
    }
  }

  it('LIST still lists, with or without the slash, and a path that does not exist is still 404', async () => {
    await t.request('POST', 'auth/userpass/users/alice', { body: { password: 'pw' } });
    for (const path of ['auth/userpass/users', 'auth/userpass/users/']) {
      const res = await t.request('LIST', path);
      assert.deepEqual(res.body.data.keys, ['alice']);
    }
    assert.equal((await t.request('GET', 'auth/userpass/user')).status, 404);
    assert.equal((await t.request('GET', 'totp/keyz')).status, 404);
  });
});
