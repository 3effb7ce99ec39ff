import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSoftHsm, pkcs11SealStanza } from '../src/sys/kms/softhsm.testing.js';
import { createSealedWard, type SealedWard } from './sealed-ward.js';

// Issue 29 point 4, done-when: a configured server with `seal "pkcs11"` (SoftHSM2) restarts
// unsealed and its sys/init returned recovery keys. Through bin/ward processes and the ward CLI.

const hsm = createSoftHsm();
const token = hsm.addToken('ward-seal', '1234');

describe('seal "pkcs11" through bin/ward on SoftHSM2', () => {
  let w: SealedWard;
  before(async () => {
    w = await createSealedWard();
  });
  after(async () => {
    await w.remove();
    hsm.remove();
  });

  it('initialises with recovery keys, restarts unsealed with nobody there, and unseals with recovery keys after sys/seal', async () => {
    // hmac_key_label has no effect in Ward, so the server names it at start.
    await w.writeConfig('auto', 'auto.db', pkcs11SealStanza(token, '  hmac_key_label = "unused"\n'));
    await w.start('auto');
    assert.match(w.output(), /seal "pkcs11": these keys have no effect in Ward.*hmac_key_label/);
    const before = await w.status();
    assert.deepEqual([before.type, before.recovery_seal, before.initialized], ['pkcs11', true, false]);
    const wrongFamily = await w.request('PUT', 'sys/init', { body: { secret_shares: 3, secret_threshold: 2 } });
    assert.equal(wrongFamily.status, 400);
    assert.deepEqual(wrongFamily.body.errors, [
      'parameters secret_shares,secret_threshold not applicable to seal type pkcs11',
    ]);

    const init = JSON.parse(
      await w.cli(['operator', 'init', '-recovery-shares=3', '-recovery-threshold=2', '-format=json']),
    );
    assert.deepEqual(init.keys, []);
    assert.equal(init.recovery_keys.length, 3);
    assert.deepEqual(
      init.recovery_keys.map((k: string) => Buffer.from(k, 'hex').toString('base64')),
      init.recovery_keys_base64,
    );
    const after = await w.status();
    assert.equal(after.sealed, false, 'an auto seal unseals itself after init');
    assert.deepEqual([after.t, after.n, after.recovery_seal_type], [2, 3, 'shamir']);
    await w.cli(['write', 'secret/app', 'password=hunter2'], init.root_token);

    await w.stop();
    await w.start('auto');
    assert.equal((await w.status()).sealed, false, 'restarted unsealed');
    assert.match(await w.cli(['read', '-field=password', 'secret/app'], init.root_token), /hunter2/);

    await w.cli(['operator', 'seal'], init.root_token);
    assert.equal((await w.status()).sealed, true);
    const one = await w.cli(['operator', 'unseal', init.recovery_keys_base64[0]]);
    assert.match(one, /Total Recovery Shares\s+3/);
    assert.match(one, /Unseal Progress\s+1\/2/);
    const wrong = await w.request('PUT', 'sys/unseal', { body: { key: Buffer.alloc(33, 9).toString('base64') } });
    assert.equal(wrong.status, 400, 'a wrong share completing the threshold fails');
    assert.match(wrong.body.errors[0], /^invalid key: /);
    assert.equal((await w.status()).sealed, true);
    for (const key of init.recovery_keys_base64.slice(1)) await w.cli(['operator', 'unseal', key]);
    assert.equal((await w.status()).sealed, false, 'two recovery keys unseal after sys/seal');
    assert.match(await w.cli(['read', '-field=password', 'secret/app'], init.root_token), /hunter2/);
  });
});
