import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { InmemStorage } from '../../storage/index.js';
import { AesGcmBarrier } from './aes-gcm-barrier.js';
import { ReadOnlyStorageError } from './read-only-error.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/** Two barriers on one store, as an active server and a performance standby share etcd. */
async function activeAndStandby() {
  const physical = new InmemStorage();
  const random = new SeededRandom('read-only');
  const clock = new FakeClock(0);
  const rootKey = random.bytes(32);
  const active = new AesGcmBarrier({ physical, random, clock });
  await active.initialize(rootKey);
  await active.unseal(rootKey);
  const standby = new AesGcmBarrier({ physical, random, clock });
  await standby.unseal(rootKey);
  standby.setHaRole('standby');
  return { active, standby, physical };
}

// Issue 19 point 5: a performance standby's barrier.
describe('AesGcmBarrier in an HA role (issue 19 point 5)', () => {
  it('refuses every write before storage sees it', async () => {
    const { standby, physical } = await activeAndStandby();
    await assert.rejects(standby.put('k', bytes('v')), ReadOnlyStorageError);
    await assert.rejects(standby.delete('k'), ReadOnlyStorageError);
    await assert.rejects(standby.transaction([{ op: 'put', key: 'k', value: bytes('v') }]), ReadOnlyStorageError);
    await assert.rejects(standby.rotate(), ReadOnlyStorageError);
    assert.equal(await physical.get('k'), undefined);
  });

  it('serves what it holds without asking storage, until the change feed drops the key', async () => {
    const { active, standby } = await activeAndStandby();
    await active.put('logical/u/a', bytes('one'));
    assert.equal(text(await standby.get('logical/u/a')), 'one');
    await active.put('logical/u/a', bytes('two'));
    // Held: the standby trusts its cache (the feed has not told it yet).
    assert.equal(text(await standby.get('logical/u/a')), 'one');
    standby.forgetCached('logical/u/a');
    assert.equal(text(await standby.get('logical/u/a')), 'two');
  });

  it('does not keep a value read while an invalidation of it came', async () => {
    const { active, standby, physical } = await activeAndStandby();
    await active.put('logical/u/a', bytes('old'));
    const stale = await physical.get('logical/u/a');
    await active.put('logical/u/a', bytes('new'));
    // Storage answers with the old value, and the feed's invalidation arrives meanwhile.
    const slow = {
      get: async () => {
        standby.forgetCached('logical/u/a');
        return stale;
      },
    };
    const original = physical.get.bind(physical);
    physical.get = slow.get;
    assert.equal(text(await standby.get('logical/u/a')), 'old');
    physical.get = original;
    assert.equal(text(await standby.get('logical/u/a')), 'new');
  });

  it('starts with an empty cache when it becomes read-only, and again when writable', async () => {
    const { active, standby } = await activeAndStandby();
    await active.put('logical/u/a', bytes('one'));
    await standby.get('logical/u/a');
    await active.put('logical/u/a', bytes('two'));
    standby.setHaRole('standby');
    assert.equal(text(await standby.get('logical/u/a')), 'two');
  });
});
