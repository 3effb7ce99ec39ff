import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18 (details) and issue 14 point 5: an empty LIST answers 404 `{"errors":[]}` on every
// path, from one place in the framework (token roles used to answer 200 `{"keys":[]}`).

describe('an empty LIST', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } });
    await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
    await t.request('POST', 'sys/auth/approle', { body: { type: 'approle' } });
    await t.request('POST', 'sys/mounts/kv1', { body: { type: 'kv' } });
  });
  after(() => t.stop());

  for (const path of [
    'auth/token/roles',
    'secret/metadata/',
    'totp/keys',
    'auth/userpass/users',
    'identity/entity/id',
    'identity/group/id',
    'auth/approle/role',
    'kv1/',
    'cubbyhole/',
  ]) {
    it(`answers 404 at ${path}`, async () => {
      const res = await t.request('LIST', path);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { errors: [] });
    });
  }

  it('lists token roles once one exists', async () => {
    assert.equal((await t.request('POST', 'auth/token/roles/ops', { body: {} })).status, 204);
    const res = await t.request('LIST', 'auth/token/roles');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.keys, ['ops']);
  });
});
