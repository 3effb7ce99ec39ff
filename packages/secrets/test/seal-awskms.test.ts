import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SealsConfig } from '../src/server/seal-config.js';
import { request, startTestServer, type TestServer } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';
import { type FakeAwsKms, startFakeAwsKms } from './fakes/aws-kms.js';

// Issue 29 point 4: a whole server with `seal "awskms"` (the official SDK against the KMS fake):
// init with recovery keys, restart unsealed, a root-key rekey and a rekey of the recovery keys, and
// a root token from them.

const OTP = 'BMjzW3wAsEzINXCM05Wbas3u9zSl';
const decode = (encoded: string) =>
  Buffer.from(Buffer.from(encoded, 'base64').map((b, i) => b ^ OTP.charCodeAt(i))).toString('utf8');

describe('seal "awskms" on a whole server', () => {
  let kms: FakeAwsKms;
  let dir: string;
  let t: TestServer | undefined;
  let seals: SealsConfig;
  const call = (method: string, path: string, body?: unknown, token: string | null = null) =>
    request(t?.url ?? '', method, path, { body, token });
  const start = async () => {
    const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
    t = await startTestServer({ storage, seals, uninitialized: true });
  };

  before(async () => {
    kms = await startFakeAwsKms();
    kms.addKey('SYMMETRIC_DEFAULT', 'alias/ward');
    dir = await mkdtemp(join(tmpdir(), 'ward-seal-awskms-'));
    const settings = {
      provider: 'alphakms' as const,
      region: 'us-east-1',
      accessKey: 'AKIDEXAMPLE',
      secretKey: 'example-secret',
      kmsKeyId: 'alias/ward',
      endpoint: kms.endpoint,
    };
    seals = { enabled: { type: 'awskms', disabled: false, settings, inertKeys: [] } };
  });
  after(async () => {
    await t?.stop();
    await kms.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('initialises with recovery keys, restarts unsealed, rotates the root key and rekeys the recovery keys with them, and makes a root token from them', async () => {
    await start();
    const init = await call('PUT', 'sys/init', { recovery_shares: 5, recovery_threshold: 3 });
    assert.equal(init.status, 200, JSON.stringify(init.body));
    let keys: string[] = init.body.recovery_keys_base64;
    const rootToken: string = init.body.root_token;
    assert.equal(keys.length, 5);
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
    assert.ok(kms.calls.includes('Encrypt') && kms.calls.includes('Decrypt'));
    assert.equal((await call('PUT', 'secret/a', { v: '1' }, rootToken)).status, 204);
    await t?.stop();
    await start();
    const status = (await call('GET', 'sys/seal-status')).body;
    assert.deepEqual([status.type, status.sealed, status.t, status.n], ['awskms', false, 3, 5]);
    assert.equal((await call('GET', 'secret/a', undefined, rootToken)).body.data.v, '1');

    // A rekey of the root key: recovery shares authorise it, no shares come back, the keyring is
    // re-encrypted and the wrapped root key replaced; the server still unseals itself afterwards.
    const physical = t?.server.core.deps.physical;
    const before = [await physical?.get('core/keyring'), await physical?.get('core/hsm/barrier-unseal-keys')];
    assert.equal((await call('PUT', 'sys/rekey/init', { require_verification: true })).status, 400);
    const rootRekey = await call('PUT', 'sys/rekey/init', {});
    assert.equal(rootRekey.status, 200, JSON.stringify(rootRekey.body));
    assert.equal(rootRekey.body.required, 3);
    let rotated: Record<string, unknown> = {};
    for (const key of keys.slice(2, 5)) {
      rotated = (await call('PUT', 'sys/rekey/update', { key, nonce: rootRekey.body.nonce })).body;
    }
    assert.equal(rotated.complete, true, JSON.stringify(rotated));
    assert.deepEqual(rotated.keys, []);
    const after = [await physical?.get('core/keyring'), await physical?.get('core/hsm/barrier-unseal-keys')];
    assert.notDeepEqual(after[0], before[0], 'the keyring is stored under a new root key');
    assert.notDeepEqual(after[1], before[1]);
    await t?.stop();
    await start();
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
    assert.equal((await call('GET', 'secret/a', undefined, rootToken)).body.data.v, '1');

    const begun = await call('PUT', 'sys/rekey-recovery-key/init', { secret_shares: 3, secret_threshold: 2 });
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    assert.equal(begun.body.required, 3, JSON.stringify(begun.body));
    let done: Record<string, unknown> = {};
    for (const key of keys.slice(0, 3)) {
      done = (await call('PUT', 'sys/rekey-recovery-key/update', { key, nonce: begun.body.nonce })).body;
    }
    assert.equal(done.complete, true);
    const oldKeys = keys;
    keys = done.keys_base64 as string[];
    assert.equal(keys.length, 3);
    assert.deepEqual(
      [(await call('GET', 'sys/seal-status')).body.t, (await call('GET', 'sys/seal-status')).body.n],
      [2, 3],
    );

    // A root token from two of the new recovery keys; the old ones no longer count.
    const attempt = await call('PUT', 'sys/generate-root/attempt', { otp: OTP });
    assert.equal(attempt.body.required, 2);
    const nonce = attempt.body.nonce;
    await call('PUT', 'sys/generate-root/update', { key: oldKeys[0], nonce });
    const stale = await call('PUT', 'sys/generate-root/update', { key: oldKeys[1], nonce });
    assert.equal(stale.status, 400, 'old recovery keys do not combine to the new recovery key');
    // The attempt stays, its shares dropped, as established.
    assert.equal((await call('GET', 'sys/generate-root/attempt')).body.progress, 0);
    let last = await call('PUT', 'sys/generate-root/update', { key: keys[0], nonce });
    last = await call('PUT', 'sys/generate-root/update', { key: keys[2], nonce });
    assert.equal(last.body.complete, true, JSON.stringify(last.body));
    const newRoot = decode(last.body.encoded_root_token);
    assert.equal((await call('GET', 'secret/a', undefined, newRoot)).body.data.v, '1');

    // Sealed by hand, the new recovery keys unseal it.
    assert.equal((await call('PUT', 'sys/seal', undefined, rootToken)).status, 204);
    for (const key of keys.slice(1, 3)) await call('PUT', 'sys/unseal', { key });
    assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
  });

  it('migrates from a transit seal (its stanza disabled) to awskms with the recovery keys', async () => {
    await t?.stop();
    const keeper = await startTestServer();
    let keeperRunning = true;
    try {
      assert.equal((await keeper.request('POST', 'sys/mounts/transit', { body: { type: 'transit' } })).status, 204);
      const transit = {
        type: 'transit',
        disabled: false,
        inertKeys: [],
        settings: {
          provider: 'transit' as const,
          address: keeper.url,
          token: keeper.rootToken,
          keyName: 'old-seal',
          mountPath: 'transit',
          tlsSkipVerify: false,
        },
      };
      const storage = parseStorageBlock('sqlite', { path: join(dir, 'auto-to-auto.db') });
      t = await startTestServer({ storage, seals: { enabled: transit }, uninitialized: true });
      const init = await call('PUT', 'sys/init', { recovery_shares: 3, recovery_threshold: 2 });
      const keys: string[] = init.body.recovery_keys_base64;
      assert.equal((await call('PUT', 'secret/moved', { v: 'kept' }, init.body.root_token)).status, 204);
      await t.stop();

      const both = { enabled: seals.enabled, disabled: { ...transit, disabled: true } };
      t = await startTestServer({ storage, seals: both, uninitialized: true });
      const pending = (await call('GET', 'sys/seal-status')).body;
      assert.deepEqual([pending.type, pending.sealed, pending.migration, pending.t], ['awskms', true, true, 2]);
      for (const key of keys.slice(0, 2)) await call('PUT', 'sys/unseal', { key, migrate: true });
      assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
      await t.stop();

      // The transit server is gone: the new seal alone unseals it, and the recovery keys are the same.
      await keeper.stop();
      keeperRunning = false;
      t = await startTestServer({ storage, seals, uninitialized: true });
      assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
      assert.equal((await call('GET', 'secret/moved', undefined, init.body.root_token)).body.data.v, 'kept');
      assert.equal((await call('PUT', 'sys/seal', undefined, init.body.root_token)).status, 204);
      for (const key of keys.slice(1)) await call('PUT', 'sys/unseal', { key });
      assert.equal((await call('GET', 'sys/seal-status')).body.sealed, false);
    } finally {
      if (keeperRunning) await keeper.stop();
    }
  });
});
