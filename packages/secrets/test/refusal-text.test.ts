import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 7: a refusal must not tell an attacker whether the token it tried is valid.
describe('one answer for every refused token (issue 12)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('answers an unknown token and a valid token without access alike', async () => {
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['default'] } });
    const valid = created.body.auth.client_token as string;
    for (const [method, path] of [
      ['GET', 'secret/data/x'],
      ['POST', 'sys/mounts/x'],
      ['GET', 'sys/policies/acl/root'],
    ]) {
      const unknown = await t.request(method as string, path as string, {
        token: 'hvs.not-a-token',
        body: method === 'POST' ? { type: 'kv' } : undefined,
      });
      const refused = await t.request(method as string, path as string, {
        token: valid,
        body: method === 'POST' ? { type: 'kv' } : undefined,
      });
      assert.equal(unknown.status, 403);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, unknown.body, `${method} ${path}`);
    }
  });
});
