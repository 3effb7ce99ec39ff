import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import {
  InmemStorage,
  type StorageBackend,
  type StorageEntry,
  type StorageOperation,
  type StorageSnapshot,
} from '../../storage/index.js';
import { AesGcmBarrier } from './aes-gcm-barrier.js';
import { ReadOnlyStorageError } from './read-only-error.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/**
 * In-memory storage whose answer to one chosen read can be held back: storage has read the value,
 * and the answer is still on its way (as an etcd reply is), while other operations go on.
 */
class SlowReadStorage implements StorageBackend {
  readonly #inner = new InmemStorage();
  #hold: { key: string; answered: () => void; released: Promise<void> } | undefined;

  /** The next read of `key` reads the value at once and answers only once `release` is called. */
  holdNextGet(key: string): { answered: Promise<void>; release(): void } {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered = () => {};
    const isAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    this.#hold = { key, answered, released };
    return { answered: isAnswered, release };
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const hold = this.#hold;
    const value = await this.#inner.get(key);
    if (hold?.key !== key) return value;
    this.#hold = undefined;
    hold.answered();
    await hold.released;
    return value;
  }

  put(key: string, value: Uint8Array): Promise<void> {
    return this.#inner.put(key, value);
  }

  delete(key: string): Promise<void> {
    return this.#inner.delete(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.#inner.list(prefix);
  }

  transaction(operations: StorageOperation[]): Promise<void> {
    return this.#inner.transaction(operations);
  }

  openSnapshot(): Promise<StorageSnapshot> {
    return this.#inner.openSnapshot();
  }

  replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    return this.#inner.replaceAll(entries);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** Two barriers on one store, as an active server and a performance standby share etcd. */
async function activeAndStandby() {
  const physical = new SlowReadStorage();
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
    // The standby's read reaches storage and its answer ('old') is on its way back, slowly...
    const held = physical.holdNextGet('logical/u/a');
    const read = standby.get('logical/u/a');
    await held.answered;
    // ...while the active server writes, and the change feed's invalidation reaches the standby.
    await active.put('logical/u/a', bytes('new'));
    standby.forgetCached('logical/u/a');
    held.release();
    // The read that was under way answers what storage said then, but the standby does not keep it.
    assert.equal(text(await read), 'old');
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

  // Issue 36: a key read while missing (a KV mount's `config`) is not read from storage on every write.
  it('remembers a missing key as missing until the change feed drops it, like a value it holds', async () => {
    const { active, standby } = await activeAndStandby();
    assert.equal(await standby.get('logical/u/config'), undefined);
    await active.put('logical/u/config', bytes('set'));
    // Trusted, as a held value is: the feed has not told the standby yet.
    assert.equal(await standby.get('logical/u/config'), undefined);
    standby.forgetCached('logical/u/config');
    assert.equal(text(await standby.get('logical/u/config')), 'set');
    await active.delete('logical/u/config');
    standby.forgetAllCached();
    assert.equal(await standby.get('logical/u/config'), undefined);
  });

  it('finds a key it wrote after reading it missing, in every write path, and never without a role', async () => {
    const { active, physical } = await activeAndStandby();
    active.setHaRole('active');
    assert.equal(await active.get('logical/u/a'), undefined);
    await active.put('logical/u/a', bytes('put'));
    assert.equal(text(await active.get('logical/u/a')), 'put');
    assert.equal(await active.get('logical/u/b'), undefined);
    await active.transaction([{ op: 'put', key: 'logical/u/b', value: bytes('tx'), uncached: true }]);
    assert.equal(text(await active.get('logical/u/b')), 'tx');
    // Without a role nothing is trusted: a value storage gained behind the barrier's back is read.
    active.setHaRole(undefined);
    assert.equal(await active.get('logical/u/c'), undefined);
    await physical.put('logical/u/c', (await physical.get('logical/u/b')) as Uint8Array);
    await assert.rejects(
      active.get('logical/u/c'),
      /failed to decrypt/,
      'storage was asked (the path is authenticated)',
    );
  });

  it('does not remember a miss read while a write of that key was under way', async () => {
    const { active, physical } = await activeAndStandby();
    active.setHaRole('active');
    const held = physical.holdNextGet('logical/u/a');
    const read = active.get('logical/u/a');
    await held.answered;
    // Uncached (as a TOTP replay record is): the barrier keeps no value that would hide the miss.
    await active.transaction([{ op: 'put', key: 'logical/u/a', value: bytes('written'), uncached: true }]);
    held.release();
    assert.equal(await read, undefined);
    assert.equal(text(await active.get('logical/u/a')), 'written');
  });

  it('keeps its own write of a key over an older value a read of it brought back meanwhile', async () => {
    const { active, physical } = await activeAndStandby();
    await active.put('logical/u/a', bytes('old'));
    active.setHaRole('active'); // the cache starts empty: the next read goes to storage
    const held = physical.holdNextGet('logical/u/a');
    const read = active.get('logical/u/a');
    await held.answered;
    await active.put('logical/u/a', bytes('new'));
    held.release();
    assert.equal(text(await read), 'old');
    // The active trusts its cache: had the read's 'old' replaced the write's 'new', it would serve it now.
    assert.equal(text(await active.get('logical/u/a')), 'new');
  });

  it('keeps a key it deleted deleted, after a read of it brought the value back meanwhile', async () => {
    const { active, physical } = await activeAndStandby();
    await active.put('logical/u/a', bytes('old'));
    active.setHaRole('active');
    const held = physical.holdNextGet('logical/u/a');
    const read = active.get('logical/u/a');
    await held.answered;
    await active.delete('logical/u/a');
    held.release();
    assert.equal(text(await read), 'old');
    assert.equal(await active.get('logical/u/a'), undefined);
  });
});
