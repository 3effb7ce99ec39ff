import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { InmemStorage } from '../../storage/index.js';
import { AesGcmBarrier } from './aes-gcm-barrier.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Two servers on one store, both unsealed with `rootKey`: `active` writes, `standby` follows. */
async function twoServers() {
  const physical = new InmemStorage();
  const clock = new FakeClock();
  const rootKey = new SeededRandom('root').bytes(32);
  const barrier = (seed: string) => new AesGcmBarrier({ physical, random: new SeededRandom(seed), clock });
  const active = barrier('active');
  const standby = barrier('standby');
  await active.initialize(rootKey);
  await active.unseal(rootKey);
  await standby.unseal(rootKey);
  active.setHaRole('active');
  standby.setHaRole('standby');
  return { physical, rootKey, active, standby };
}

describe('AesGcmBarrier.reloadKeyring: another server replaced the root key', () => {
  it('takes the new root key from its stored copy, so a rotation after it and a new unseal still work', async () => {
    const { physical, rootKey, active, standby } = await twoServers();
    await active.rotateRootKey(async () => []);
    const newRootKey = active.copyRootKey() as Uint8Array;
    assert.notDeepEqual(newRootKey, rootKey);

    await standby.reloadKeyring();
    assert.deepEqual(standby.copyRootKey(), newRootKey, 'the standby holds the new root key');
    // The active server rotates the keyring (stored under the new root key): the standby follows.
    await active.rotate();
    await active.put('secret', bytes('term 2'));
    await standby.reloadKeyring();
    assert.equal(standby.keyStatus().term, 2);
    assert.equal(text(await standby.get('secret')), 'term 2');

    // The standby takes over and rotates: what it stores opens with the new root key, not the old one.
    active.seal();
    standby.setHaRole('active');
    await standby.rotate();
    const restarted = new AesGcmBarrier({ physical, random: new SeededRandom('restarted'), clock: new FakeClock() });
    await assert.rejects(restarted.unseal(rootKey), /invalid key/);
    await restarted.unseal(newRootKey);
    assert.equal(restarted.keyStatus().term, 3);
    assert.equal(text(await restarted.get('secret')), 'term 2');
  });

  it('asks the seal when the copy is under a term it lacks; fails, holding on to its keys, when the seal has none', async () => {
    // A rotation, then a new root key, both before the standby reads the keyring: the root key's
    // copy is under term 2, which the standby does not have yet.
    const rotatedTwice = async (sealedRootKey?: () => Promise<Uint8Array | undefined>) => {
      const { physical, rootKey, active } = await twoServers();
      const standby = new AesGcmBarrier({
        physical,
        random: new SeededRandom('s'),
        clock: new FakeClock(),
        sealedRootKey,
      });
      await standby.unseal(rootKey);
      standby.setHaRole('standby');
      await active.rotate();
      await active.rotateRootKey(async () => []);
      return { rootKey, active, standby };
    };
    const lost = await rotatedTwice(async () => undefined);
    await assert.rejects(lost.standby.reloadKeyring(), /opens neither with the root key held nor with the stored/);
    assert.deepEqual(lost.standby.copyRootKey(), lost.rootKey);
    assert.equal(lost.standby.keyStatus().term, 1);

    let sealed: Uint8Array | undefined;
    const found = await rotatedTwice(async () => sealed && new Uint8Array(sealed));
    sealed = found.active.copyRootKey();
    await found.standby.reloadKeyring();
    assert.deepEqual(found.standby.copyRootKey(), sealed);
    assert.equal(found.standby.keyStatus().term, 2);
  });
});
