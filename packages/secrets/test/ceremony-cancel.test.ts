import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { initShamirAndUnseal, request, startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 28 point 9, HCSEC-2026-08 (CVE-2026-5807): rekey and root-token generation need no token,
// so anyone reaching the port could cancel an attempt over and over and throw away the shares
// submitted. Once a share is in, cancelling needs a token with sudo; before, anyone may cancel.
describe('cancelling rekey and root generation (HCSEC-2026-08)', () => {
  let t: TestServer;
  let keys: string[];
  let rootToken: string;
  const call = (method: string, path: string, body?: unknown, token: string | null = null) =>
    request(t.url, method, path, { body, token });

  before(async () => {
    t = await startTestServer({ uninitialized: true });
    ({ keys, rootToken } = await initShamirAndUnseal(t.url));
  });
  after(() => t.stop());

  for (const [start, update, cancel, body] of [
    ['sys/generate-root/attempt', 'sys/generate-root/update', 'sys/generate-root/attempt', {}],
    ['sys/rekey/init', 'sys/rekey/update', 'sys/rekey/init', { secret_shares: 3, secret_threshold: 2 }],
  ] as const) {
    it(`${start}: anyone cancels an attempt without shares; with one, only a token with sudo`, async () => {
      assert.equal((await call('PUT', start, body)).status, 200);
      assert.equal((await call('DELETE', cancel)).status, 204, 'no share yet: the slot is never stuck');
      const { nonce } = (await call('PUT', start, body)).body;
      assert.equal((await call('PUT', update, { key: keys[0], nonce })).status, 200);
      const refused = await call('DELETE', cancel);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal((await call('GET', start)).body.progress, 1, 'the share submitted is kept');
      assert.equal((await call('DELETE', cancel, undefined, rootToken)).status, 204);
      assert.equal((await call('GET', start)).body.started, false);
    });
  }
});
