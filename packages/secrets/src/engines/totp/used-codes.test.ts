import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, silentLogger } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import { InmemStorage } from '../../storage/index.js';
import { SWEEP_INTERVAL_MS, UsedCodes } from './used-codes.js';

function setup() {
  const storage = new InmemStorage();
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  const used = new UsedCodes({ storage, clock, logger: silentLogger, locks: new KeyedMutex() });
  return { storage, clock, used };
}

describe('UsedCodes', () => {
  it('refuses a recorded code until its time is up, per key', async () => {
    const { clock, used } = setup();
    await used.record('app', '123456', 90);
    assert.equal(await used.isUsed('app', '123456'), true);
    assert.equal(await used.isUsed('app', '654321'), false);
    assert.equal(await used.isUsed('other', '123456'), false);
    clock.advance(89_999);
    assert.equal(await used.isUsed('app', '123456'), true);
    clock.advance(1);
    assert.equal(await used.isUsed('app', '123456'), false);
  });

  it('keeps records in storage, where another instance over the same storage sees them', async () => {
    const { storage, clock, used } = setup();
    await used.record('app', '123456', 90);
    const again = new UsedCodes({ storage, clock, logger: silentLogger, locks: new KeyedMutex() });
    assert.equal(await again.isUsed('app', '123456'), true);
    const [hash] = await storage.list('used/app/');
    assert.match(hash ?? '', /^[0-9a-f]{64}$/, 'stored under a hash of the code, not the code');
  });

  it('stores any submitted text safely, slashes included', async () => {
    const { storage, used } = setup();
    await used.record('app', '../../key/app', 90);
    assert.equal(await used.isUsed('app', '../../key/app'), true);
    assert.deepEqual(await storage.list(''), ['used/']);
  });

  it('sweeps expired records, of deleted keys too, at most once per interval', async () => {
    const { storage, clock, used } = setup();
    await used.record('gone', '111111', 30); // the first record starts a sweep (nothing expired yet)
    await used.close();
    clock.advance(40_000);
    await used.record('app', '222222', 30); // within the interval: no sweep
    await used.close();
    assert.deepEqual(await storage.list('used/'), ['app/', 'gone/'], 'expired 10 s ago, not yet swept');
    clock.advance(30_000); // t = 70 s: past the next sweep (t = SWEEP_INTERVAL_MS) and 222222's expiry
    assert.ok(clock.now() - Date.parse('2024-01-01T00:00:00Z') >= SWEEP_INTERVAL_MS);
    await used.record('app', '333333', 90);
    await used.close();
    assert.deepEqual(await storage.list('used/'), ['app/'], 'the expired record of "gone" is swept');
    assert.equal((await storage.list('used/app/')).length, 1, 'and so is the expired 222222');
    assert.equal(await used.isUsed('app', '333333'), true);
  });
});
