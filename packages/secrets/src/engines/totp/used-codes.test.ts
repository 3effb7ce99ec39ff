import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import { InmemStorage } from '../../storage/index.js';
import { FULL_SWEEP_EVERY, UsedCodes } from './used-codes.js';

/** In-memory storage that counts lists and reads. */
class CountingStorage extends InmemStorage {
  lists = 0;
  reads = 0;
  override async list(prefix: string): Promise<string[]> {
    this.lists++;
    return super.list(prefix);
  }
  override async get(key: string): Promise<Uint8Array | undefined> {
    this.reads++;
    return super.get(key);
  }
}

function setup() {
  const storage = new CountingStorage();
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  const used = new UsedCodes({ storage, clock, locks: new KeyedMutex() });
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
    const again = new UsedCodes({ storage, clock, locks: new KeyedMutex() });
    assert.equal(await again.isUsed('app', '123456'), true);
    const [hash] = await storage.list('used/app/');
    const sha256 = createHash('sha256').update('123456').digest('hex');
    assert.equal(hash, sha256, 'stored under the SHA-256 of the code (the layout records of earlier versions have)');
  });

  it('stores any submitted text safely, slashes included', async () => {
    const { storage, used } = setup();
    await used.record('app', '../../key/app', 90);
    assert.equal(await used.isUsed('app', '../../key/app'), true);
    assert.deepEqual(await storage.list(''), ['used/']);
  });

  it('sweeps expired records, of deleted keys too, and keeps fresh ones', async () => {
    const { storage, clock, used } = setup();
    await used.record('gone', '111111', 30);
    clock.advance(40_000);
    await used.record('app', '222222', 30);
    await used.record('app', '333333', 90);
    assert.deepEqual(await storage.list('used/'), ['app/', 'gone/'], 'expired records stay until a sweep');
    clock.advance(30_000); // 222222 expires; 333333 has 60 s left
    await used.sweep();
    assert.deepEqual(await storage.list('used/'), ['app/'], 'the expired record of "gone" is swept');
    assert.equal((await storage.list('used/app/')).length, 1, 'and so is the expired 222222');
    assert.equal(await used.isUsed('app', '333333'), true);
  });

  it('after its first sweep, sweeps only the records it wrote, without listing storage', async () => {
    const { storage, clock, used } = setup();
    await used.sweep(); // the first sweep after start lists everything
    await used.record('app', '111111', 30);
    await used.record('app', '222222', 30);
    clock.advance(20_000);
    await used.record('app', '333333', 30);
    await used.record('other', '444444', 30);
    clock.advance(10_000); // 111111 and 222222 expire
    const before = { lists: storage.lists, reads: storage.reads };
    await used.sweep();
    assert.equal(storage.lists, before.lists, 'no list');
    assert.equal(storage.reads, before.reads + 2, 'the two expired records read once each');
    assert.deepEqual(await storage.list('used/'), ['app/', 'other/']);
    assert.equal((await storage.list('used/app/')).length, 1);
    clock.advance(20_000);
    await used.sweep();
    assert.deepEqual(await storage.list('used/'), []);
  });

  it('keeps a record written again at the same place after the first expired, by it or another instance', async () => {
    const { storage, clock, used } = setup();
    const other = new UsedCodes({ storage, clock, locks: new KeyedMutex() });
    await used.sweep();
    await used.record('app', '111111', 30);
    await used.record('app', '222222', 30);
    clock.advance(31_000);
    await used.record('app', '111111', 90);
    await other.record('app', '222222', 90);
    await used.sweep();
    assert.equal(await used.isUsed('app', '111111'), true);
    assert.equal(await used.isUsed('app', '222222'), true);
  });

  it('sweeps the records another instance wrote at its next full sweep', async () => {
    const { storage, clock, used } = setup();
    await used.sweep();
    await new UsedCodes({ storage, clock, locks: new KeyedMutex() }).record('app', '111111', 30);
    clock.advance(30_000);
    for (let i = 1; i < FULL_SWEEP_EVERY; i++) await used.sweep();
    assert.equal((await storage.list('used/app/')).length, 1, 'not seen by incremental sweeps');
    await used.sweep();
    assert.deepEqual(await storage.list('used/'), []);
  });
});
