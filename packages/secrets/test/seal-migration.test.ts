import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSoftHsm, pkcs11SealStanza } from '../src/sys/kms/softhsm.testing.js';
import { createSealedWard, type SealedWard } from './sealed-ward.js';

// Issue 29 point 4, done-when: Shamir → PKCS#11 migration keeps every secret (and PKCS#11 →
// Shamir too), with `ward operator unseal -migrate` and `seal { disabled = "true" }` as established.

const hsm = createSoftHsm();
const token = hsm.addToken('ward-migrate', '1234');

describe('seal migration through bin/ward', () => {
  let w: SealedWard;
  before(async () => {
    w = await createSealedWard();
  });
  after(async () => {
    await w.remove();
    hsm.remove();
  });

  it('Shamir → PKCS#11 with `ward operator unseal -migrate` keeps every secret; the unseal keys become recovery keys; and back to Shamir', async () => {
    await w.writeConfig('shamir', 'migrate.db', '');
    await w.start('shamir');
    const init = JSON.parse(await w.cli(['operator', 'init', '-key-shares=3', '-key-threshold=2', '-format=json']));
    const keys: string[] = init.keys_base64;
    for (const key of keys.slice(0, 2)) await w.cli(['operator', 'unseal', key]);
    const secrets = new Map(Array.from({ length: 20 }, (_, i) => [`secret/item-${i}`, `value-${i}`]));
    // Written and read over HTTP: a CLI process each would take minutes.
    for (const [path, v] of secrets) {
      assert.equal((await w.request('PUT', path, { token: init.root_token, body: { v } })).status, 204);
    }
    await w.stop();

    await w.writeConfig('to-pkcs11', 'migrate.db', pkcs11SealStanza(token));
    await w.start('to-pkcs11');
    const pending = await w.status();
    assert.deepEqual([pending.type, pending.sealed, pending.migration], ['pkcs11', true, true]);
    const plain = await w.request('PUT', 'sys/unseal', { body: { key: keys[0] } });
    assert.equal(plain.status, 400);
    assert.deepEqual(plain.body.errors, ['migrate option not provided and seal migration is pending']);
    await w.cli(['operator', 'unseal', '-migrate', keys[0] ?? '']);
    await w.cli(['operator', 'unseal', '-migrate', keys[2] ?? '']);
    const migrated = await w.status();
    assert.deepEqual([migrated.sealed, migrated.migration, migrated.recovery_seal], [false, false, true]);
    assert.deepEqual([migrated.t, migrated.n], [2, 3], 'the unseal shares became the recovery shares');
    await w.readsEvery(secrets, init.root_token);

    // Restarted, it unseals itself; the old unseal keys are now recovery keys.
    await w.stop();
    await w.start('to-pkcs11');
    assert.equal((await w.status()).sealed, false);
    await w.readsEvery(secrets, init.root_token);
    await w.cli(['operator', 'seal'], init.root_token);
    for (const key of keys.slice(1, 3)) await w.cli(['operator', 'unseal', key]);
    assert.equal((await w.status()).sealed, false);
    await w.stop();

    // Back to Shamir: the stanza stays, disabled; the recovery keys become the unseal keys.
    await w.writeConfig('to-shamir', 'migrate.db', pkcs11SealStanza(token, '  disabled = "true"\n'));
    await w.start('to-shamir');
    const back = await w.status();
    assert.deepEqual([back.type, back.sealed, back.migration, back.recovery_seal], ['shamir', true, true, false]);
    for (const key of keys.slice(0, 2)) await w.cli(['operator', 'unseal', '-migrate', key]);
    assert.equal((await w.status()).sealed, false);
    await w.stop();
    await w.writeConfig('shamir-again', 'migrate.db', '');
    await w.start('shamir-again');
    assert.equal((await w.status()).sealed, true, 'a Shamir server waits for its keys');
    for (const key of keys.slice(1, 3)) await w.cli(['operator', 'unseal', key]);
    await w.readsEvery(secrets, init.root_token);
  });
});
