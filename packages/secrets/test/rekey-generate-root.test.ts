import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { initShamirAndUnseal, request, startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: rekey and root-token generation of a Shamir seal (5 shares, threshold 3), over HTTP.

const OTP = 'BMjzW3wAsEzINXCM05Wbas3u9zSl';

/** The established decoding: unpadded base64, XOR the one-time pad. */
function decode(encoded: string, otp: string): string {
  const bytes = Buffer.from(encoded, 'base64');
  return Buffer.from(bytes.map((b, i) => b ^ otp.charCodeAt(i))).toString('utf8');
}

describe('rekey and generate-root', () => {
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

  it('generates a root token from three shares, encoded with the caller’s one-time pad', async () => {
    const idle = await call('GET', 'sys/generate-root/attempt');
    assert.deepEqual(idle.body, {
      started: false,
      nonce: '',
      progress: 0,
      required: 3,
      complete: false,
      encoded_token: '',
      encoded_root_token: '',
      pgp_fingerprint: '',
      otp: '',
      otp_length: 28,
    });
    const start = await call('PUT', 'sys/generate-root/attempt', { otp: OTP });
    assert.equal(start.status, 200);
    assert.equal(start.body.started, true);
    assert.match(start.body.nonce, /^[0-9a-f-]{36}$/);
    assert.equal((await call('PUT', 'sys/generate-root/attempt', { otp: OTP })).status, 400, 'one at a time');
    const { nonce } = start.body;
    assert.equal((await call('PUT', 'sys/generate-root/update', { key: keys[0], nonce: 'other' })).status, 400);
    let last = await call('PUT', 'sys/generate-root/update', { key: keys[0], nonce });
    assert.equal(last.body.progress, 1);
    const repeat = await call('PUT', 'sys/generate-root/update', { key: keys[0], nonce });
    assert.equal(repeat.status, 400, 'the same share twice does not count');
    for (const key of keys.slice(1, 3)) last = await call('PUT', 'sys/generate-root/update', { key, nonce });
    assert.equal(last.body.complete, true);
    assert.equal(last.body.encoded_token, last.body.encoded_root_token);
    assert.doesNotMatch(last.body.encoded_token, /=$/, 'unpadded base64');
    const token = decode(last.body.encoded_root_token, OTP);
    assert.match(token, /^hvs\.[A-Za-z0-9]{24}$/);
    const self = await call('GET', 'auth/token/lookup-self', undefined, token);
    assert.deepEqual(self.body.data.policies, ['root']);
    assert.equal((await call('GET', 'sys/generate-root/attempt')).body.started, false, 'the attempt is over');
  });

  it('generates a one-time pad when none is given, and cancels', async () => {
    const start = await call('PUT', 'sys/generate-root/attempt', {});
    assert.equal(start.body.otp.length, 28);
    assert.equal((await call('GET', 'sys/generate-root/attempt')).body.otp, '', 'the pad is shown once');
    assert.equal((await call('DELETE', 'sys/generate-root/attempt')).status, 204);
    assert.equal((await call('GET', 'sys/generate-root/attempt')).body.started, false);
    assert.equal((await call('PUT', 'sys/generate-root/attempt', { otp: 'short' })).status, 400);
  });

  it('refuses shares of another seal, and starts the count again', async () => {
    const { nonce } = (await call('PUT', 'sys/generate-root/attempt', { otp: OTP })).body;
    const other = await startTestServer({ uninitialized: true });
    try {
      const foreign = (await request(other.url, 'PUT', 'sys/init', { body: { secret_shares: 5, secret_threshold: 3 } }))
        .body.keys as string[];
      await call('PUT', 'sys/generate-root/update', { key: foreign[0], nonce });
      await call('PUT', 'sys/generate-root/update', { key: foreign[1], nonce });
      const wrong = await call('PUT', 'sys/generate-root/update', { key: foreign[2], nonce });
      assert.equal(wrong.status, 400);
      assert.equal((await call('GET', 'sys/generate-root/attempt')).body.progress, 0);
    } finally {
      await other.stop();
      await call('DELETE', 'sys/generate-root/attempt');
    }
  });

  it('rekeys to 3 shares / threshold 2; the old shares stop working', async () => {
    const idle = await call('GET', 'sys/rekey/init');
    assert.equal(idle.body.started, false);
    assert.equal(idle.body.required, 3);
    const start = await call('PUT', 'sys/rekey/init', { secret_shares: 3, secret_threshold: 2 });
    assert.equal(start.body.started, true);
    assert.equal(start.body.n, 3);
    assert.equal(start.body.t, 2);
    const { nonce } = start.body;
    let last = await call('PUT', 'sys/rekey/update', { key: keys[0], nonce });
    assert.equal(last.body.complete, undefined);
    assert.equal(last.body.progress, 1);
    for (const key of keys.slice(1, 3)) last = await call('PUT', 'sys/rekey/update', { key, nonce });
    assert.equal(last.body.complete, true);
    assert.equal(last.body.keys.length, 3);
    assert.equal(last.body.keys_base64.length, 3);
    const newKeys: string[] = last.body.keys;
    assert.equal((await call('GET', 'sys/rekey/init')).body.started, false);
    assert.equal((await call('GET', 'sys/seal-status')).body.t, 2);

    await call('PUT', 'sys/seal', undefined, rootToken);
    for (const key of keys.slice(0, 3)) await call('PUT', 'sys/unseal', { key });
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, true, 'the old shares no longer unseal');
    await call('PUT', 'sys/unseal', { reset: true });
    for (const key of newKeys.slice(0, 2)) await call('PUT', 'sys/unseal', { key });
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
    keys = newKeys;
  });

  it('with require_verification, the new shares take effect only once verified', async () => {
    const { nonce } = (
      await call('PUT', 'sys/rekey/init', { secret_shares: 3, secret_threshold: 2, require_verification: true })
    ).body;
    let last = await call('PUT', 'sys/rekey/update', { key: keys[0], nonce });
    last = await call('PUT', 'sys/rekey/update', { key: keys[1], nonce });
    assert.equal(last.body.complete, true);
    assert.equal(last.body.verification_required, true);
    const newKeys: string[] = last.body.keys;
    const first = (await call('GET', 'sys/rekey/verify')).body;
    assert.equal(first.nonce, last.body.verification_nonce);
    assert.equal(first.t, 2);
    const restarted = (await call('DELETE', 'sys/rekey/verify')).body;
    assert.notEqual(restarted.nonce, first.nonce);
    assert.equal((await call('GET', 'sys/seal-status')).body.t, 2);
    const oldStillWork = keys;
    await call('PUT', 'sys/rekey/verify', { key: newKeys[0], nonce: restarted.nonce });
    const done = await call('PUT', 'sys/rekey/verify', { key: newKeys[1], nonce: restarted.nonce });
    assert.deepEqual(done.body, { nonce: restarted.nonce, complete: true });
    await call('PUT', 'sys/seal', undefined, rootToken);
    for (const key of oldStillWork.slice(0, 2)) await call('PUT', 'sys/unseal', { key });
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, true);
    await call('PUT', 'sys/unseal', { reset: true });
    for (const key of newKeys.slice(0, 2)) await call('PUT', 'sys/unseal', { key });
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
  });

  it('cancels a rekey, has no backups, and refuses PGP', async () => {
    await call('PUT', 'sys/rekey/init', { secret_shares: 3, secret_threshold: 2 });
    assert.equal((await call('DELETE', 'sys/rekey/init')).status, 204);
    assert.equal((await call('GET', 'sys/rekey/init')).body.started, false);
    const backup = await call('GET', 'sys/rekey/backup', undefined, rootToken);
    assert.deepEqual(backup.body, { errors: ['no backed-up keys found'] });
    assert.equal((await call('PUT', 'sys/rekey/init', { pgp_keys: ['abc'] })).status, 400);
    assert.equal((await call('PUT', 'sys/rekey/init', { secret_shares: 3, secret_threshold: 4 })).status, 400);
  });
});
