import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { createSealedWard, type SealedWard } from './sealed-ward.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 29 point 4: `seal "transit"` against a second bin/ward's transit engine, for real: the
// sealed server restarts unsealed, and still does after the transit key is rotated and the old
// version retired (it re-wrapped its seal entries under the new version after the first restart).

describe('seal "transit" through two bin/ward processes', () => {
  let keeper: DevWard;
  let w: SealedWard;
  const keeperCall = (method: string, path: string, body?: unknown) =>
    request(keeper.url, method, path, { token: 'keeper-root', body });

  before(async () => {
    keeper = await startDevWard('keeper-root');
    assert.equal((await keeperCall('POST', 'sys/mounts/transit', { type: 'transit' })).status, 204);
    assert.ok((await keeperCall('POST', 'transit/keys/ward-unseal', {})).status < 300);
    w = await createSealedWard();
  });
  after(async () => {
    await w.remove();
    keeper.ward.child.kill('SIGTERM');
    await keeper.ward.exited;
  });

  it('unseals itself at every start, after a rotation of the transit key too', async () => {
    await w.writeConfig(
      'transit',
      'transit.db',
      `seal "transit" {\n  address = "${keeper.url}"\n  token = "keeper-root"\n  key_name = "ward-unseal"\n  mount_path = "transit/"\n}\n`,
    );
    await w.start('transit');
    const init = JSON.parse(
      await w.cli(['operator', 'init', '-recovery-shares=1', '-recovery-threshold=1', '-format=json']),
    );
    assert.equal(init.recovery_keys.length, 1);
    assert.equal((await w.request('PUT', 'secret/kept', { token: init.root_token, body: { v: 'yes' } })).status, 204);
    await w.stop();
    await w.start('transit');
    assert.equal((await w.status()).sealed, false);

    assert.ok((await keeperCall('POST', 'transit/keys/ward-unseal/rotate')).status < 300);
    await w.stop();
    await w.start('transit');
    assert.equal((await w.status()).sealed, false, 'the old key version still decrypts');
    assert.match(w.output(), /re-wrapped the seal entries under the current seal key.*ward-unseal:v2/);

    // Version 1 retired: only entries re-wrapped under version 2 can still be read.
    const retire = await keeperCall('POST', 'transit/keys/ward-unseal/config', { min_decryption_version: 2 });
    assert.ok(retire.status < 300, JSON.stringify(retire.body));
    await w.stop();
    await w.start('transit');
    assert.equal((await w.status()).sealed, false, 'unsealed with version 1 retired');
    assert.equal((await w.request('GET', 'secret/kept', { token: init.root_token })).body.data.v, 'yes');
  });
});
