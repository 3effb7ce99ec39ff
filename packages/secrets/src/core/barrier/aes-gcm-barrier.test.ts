import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { InternalError, InvalidRequestError, SealedError } from '../../logical/errors.js';
import { frozenJsonPut, getFrozenJson, type StorageOperation } from '../../logical/storage.js';
import { InmemStorage, SqliteStorage, type StorageBackend } from '../../storage/index.js';
import { AesGcmBarrier, KEYRING_PATH, ROOT_KEY_PATH } from './aes-gcm-barrier.js';
import { PlaintextCache } from './plaintext-cache.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));
const termOf = (value: Uint8Array | undefined) => Buffer.from(value ?? []).readUInt32BE(0);

async function openBarrier(physical: StorageBackend = new InmemStorage(), clock = new FakeClock(0)) {
  const random = new SeededRandom('barrier');
  const barrier = new AesGcmBarrier({ physical, random, clock });
  const rootKey = random.bytes(32);
  await barrier.initialize(rootKey);
  await barrier.unseal(rootKey);
  return { barrier, physical, rootKey, clock };
}

describe('AesGcmBarrier', () => {
  it('round-trips values, lists keys and applies batches', async () => {
    const { barrier } = await openBarrier();
    await barrier.put('logical/u/a', bytes('alpha'));
    await barrier.transaction([
      { op: 'put', key: 'logical/u/b/c', value: bytes('beta') },
      { op: 'delete', key: 'logical/u/a' },
    ]);
    assert.equal(await barrier.get('logical/u/a'), undefined);
    assert.equal(text(await barrier.get('logical/u/b/c')), 'beta');
    assert.deepEqual(await barrier.list('logical/u/'), ['b/']);
    await barrier.delete('logical/u/b/c');
    assert.deepEqual(await barrier.list('logical/u/'), []);
  });

  it('stores [term][version 2][nonce][ciphertext+tag], with a fresh nonce each write', async () => {
    const { barrier, physical } = await openBarrier();
    await barrier.put('a', bytes('same'));
    const first = await physical.get('a');
    await barrier.put('a', bytes('same'));
    const second = await physical.get('a');
    assert.ok(first && second);
    assert.equal(termOf(first), 1);
    assert.equal(first[4], 2);
    assert.equal(first.length, 4 + 1 + 12 + 4 + 16);
    assert.notDeepEqual(first.subarray(5, 17), second.subarray(5, 17));
    assert.notDeepEqual(first, second);
  });

  it('refuses a ciphertext moved to another key, and a tampered one', async () => {
    const { barrier, physical } = await openBarrier();
    await barrier.put('logical/u/mine', bytes('secret'));
    const stored = (await physical.get('logical/u/mine'))!;
    await physical.put('logical/u/other', stored);
    await assert.rejects(barrier.get('logical/u/other'), InternalError);
    const flipped = new Uint8Array(stored);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    await physical.put('logical/u/mine', flipped);
    await assert.rejects(barrier.get('logical/u/mine'), InternalError);
    const otherVersion = new Uint8Array(stored);
    otherVersion[4] = 1;
    await physical.put('logical/u/mine', otherVersion);
    await assert.rejects(barrier.get('logical/u/mine'), InternalError);
    await physical.put('logical/u/mine', stored.subarray(0, 10));
    await assert.rejects(barrier.get('logical/u/mine'), InternalError);
  });

  it('serves repeated reads from its cache only while storage holds the same ciphertext', async () => {
    const physical = new InmemStorage();
    const { barrier, rootKey } = await openBarrier(physical);
    await barrier.put('logical/u/k', bytes('first'));
    const read = await barrier.get('logical/u/k');
    read?.fill(0); // the caller owns what it got: later reads must not see this
    assert.equal(text(await barrier.get('logical/u/k')), 'first');
    // A second server sharing the storage writes a new value, behind this barrier's back.
    const other = new AesGcmBarrier({ physical, random: new SeededRandom('other'), clock: new FakeClock(0) });
    await other.unseal(rootKey);
    await other.put('logical/u/k', bytes('second'));
    assert.equal(text(await barrier.get('logical/u/k')), 'second');
    // An entry restored from an older copy is read as stored, not as last seen.
    const stored = (await physical.get('logical/u/k'))!;
    await barrier.put('logical/u/k', bytes('third'));
    await physical.put('logical/u/k', stored);
    assert.equal(text(await barrier.get('logical/u/k')), 'second');
  });

  it('decodes a JSON entry once, frozen, and again whenever storage holds another ciphertext', async () => {
    const physical = new InmemStorage();
    const { barrier, rootKey } = await openBarrier(physical);
    const decodes: string[] = [];
    const decode = (value: Uint8Array) => {
      decodes.push(text(value) ?? '');
      return Object.freeze(JSON.parse(text(value) ?? ''));
    };
    await barrier.put('logical/u/k', bytes('{"v":1}'));
    const first = await barrier.getDecoded('logical/u/k', decode);
    assert.deepEqual(first, { v: 1 });
    assert.equal(await barrier.getDecoded('logical/u/k', decode), first);
    assert.deepEqual(decodes, ['{"v":1}']);
    await barrier.put('logical/u/k', bytes('{"v":2}'));
    assert.deepEqual(await barrier.getDecoded('logical/u/k', decode), { v: 2 });
    // A second server sharing the storage writes a new value, behind this barrier's back.
    const other = new AesGcmBarrier({ physical, random: new SeededRandom('other'), clock: new FakeClock(0) });
    await other.unseal(rootKey);
    await other.put('logical/u/k', bytes('{"v":3}'));
    assert.deepEqual(await barrier.getDecoded('logical/u/k', decode), { v: 3 });
    await barrier.delete('logical/u/k');
    assert.equal(await barrier.getDecoded('logical/u/k', decode), undefined);
    assert.deepEqual(decodes, ['{"v":1}', '{"v":2}', '{"v":3}']);
  });

  it('checks a cached entry with the storage’s holds, without reading the value out', async () => {
    const physical = new InmemStorage();
    const { barrier, rootKey } = await openBarrier(physical);
    await barrier.put('logical/u/k', bytes('{"v":1}'));
    let gets = 0;
    const get = physical.get.bind(physical);
    physical.get = async (key) => {
      if (key === 'logical/u/k') gets++;
      return get(key);
    };
    assert.equal(text(await barrier.get('logical/u/k')), '{"v":1}');
    assert.deepEqual(await getFrozenJson(barrier, 'logical/u/k'), { v: 1 });
    assert.equal(gets, 0);
    // Another server writes: storage no longer holds the cached bytes, so the barrier reads them.
    const other = new AesGcmBarrier({ physical, random: new SeededRandom('other'), clock: new FakeClock(0) });
    await other.unseal(rootKey);
    await other.put('logical/u/k', bytes('{"v":2}'));
    assert.deepEqual(await getFrozenJson(barrier, 'logical/u/k'), { v: 2 });
    assert.equal(text(await barrier.get('logical/u/k')), '{"v":2}');
    assert.equal(gets, 1);
    await other.delete('logical/u/k');
    assert.equal(await barrier.get('logical/u/k'), undefined);
  });

  it('keeps the decoded value a transaction seeds, and stores only the encrypted bytes', async () => {
    const physical = new InmemStorage();
    const seen: StorageOperation[][] = [];
    const transaction = physical.transaction.bind(physical);
    physical.transaction = async (operations) => {
      seen.push(operations);
      return transaction(operations);
    };
    const { barrier, rootKey } = await openBarrier(physical);
    const value = { v: 1, nested: { list: [1, 2] } };
    await barrier.transaction([frozenJsonPut('logical/u/k', value)]);
    const never = () => assert.fail('a seeded entry is not decoded again');
    assert.equal(await barrier.getDecoded('logical/u/k', never), value);
    assert.ok(Object.isFrozen(value.nested.list));
    assert.deepEqual(Object.keys(seen.at(-1)?.[0] ?? {}), ['op', 'key', 'value']);
    // Another server decodes the stored bytes to the same value.
    const other = new AesGcmBarrier({ physical, random: new SeededRandom('other'), clock: new FakeClock(0) });
    await other.unseal(rootKey);
    assert.deepEqual(await getFrozenJson(other, 'logical/u/k'), value);
    // A write without a seed replaces it.
    await barrier.put('logical/u/k', bytes('{"v":2}'));
    assert.deepEqual(await getFrozenJson(barrier, 'logical/u/k'), { v: 2 });
  });

  it('keeps no decrypted copy of a put marked uncached, and drops the one it held', async () => {
    const physical = new InmemStorage();
    const random = new SeededRandom('barrier');
    const cache = new PlaintextCache();
    const barrier = new AesGcmBarrier({ physical, random, clock: new FakeClock(0), cache });
    const rootKey = random.bytes(32);
    await barrier.initialize(rootKey);
    await barrier.unseal(rootKey);
    const held = cache.size;
    await barrier.put('logical/u/k', bytes('cached'));
    assert.equal(cache.size, held + 1);
    await barrier.transaction([{ op: 'put', key: 'logical/u/k', value: bytes('not cached'), uncached: true }]);
    await barrier.transaction([{ op: 'put', key: 'logical/u/other', value: bytes('nor this'), uncached: true }]);
    assert.equal(cache.size, held);
    assert.equal(text(await physical.get('logical/u/k'))?.includes('cached'), false, 'stored encrypted');
    assert.equal(text(await barrier.get('logical/u/k')), 'not cached');
    assert.equal(text(await barrier.get('logical/u/other')), 'nor this');
  });

  it('forgets every cached plaintext when it seals', async () => {
    const { barrier, rootKey } = await openBarrier();
    await barrier.put('logical/u/k', bytes('secret'));
    assert.equal(text(await barrier.get('logical/u/k')), 'secret');
    barrier.seal();
    await assert.rejects(barrier.get('logical/u/k'), SealedError);
    await barrier.unseal(rootKey);
    assert.equal(text(await barrier.get('logical/u/k')), 'secret');
  });

  it('opens only with the right root key', async () => {
    const physical = new InmemStorage();
    const { barrier, rootKey } = await openBarrier(physical);
    await barrier.put('k', bytes('v'));
    barrier.seal();
    const wrong = new Uint8Array(rootKey);
    wrong[0] = (wrong[0] ?? 0) ^ 0xff;
    await assert.rejects(barrier.unseal(wrong), (err: unknown) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.match(err.message, /^invalid key: failed to decrypt keys from storage: /);
      return true;
    });
    await assert.rejects(barrier.unseal(new Uint8Array(16)), InvalidRequestError);
    assert.equal(barrier.isSealed(), true);
    await barrier.unseal(rootKey);
    assert.equal(text(await barrier.get('k')), 'v');
  });

  it('initialises once, sealed, and cannot unseal before that', async () => {
    const barrier = new AesGcmBarrier({
      physical: new InmemStorage(),
      random: new SeededRandom(1),
      clock: new FakeClock(0),
    });
    const rootKey = new SeededRandom(2).bytes(32);
    assert.equal(await barrier.isInitialized(), false);
    await assert.rejects(barrier.unseal(rootKey), InvalidRequestError);
    await barrier.initialize(rootKey);
    assert.equal(await barrier.isInitialized(), true);
    assert.equal(barrier.isSealed(), true);
    await assert.rejects(barrier.initialize(rootKey), InvalidRequestError);
  });

  it('answers SealedError to every data operation while sealed', async () => {
    const { barrier } = await openBarrier();
    barrier.seal();
    const ops: StorageOperation[] = [{ op: 'delete', key: 'k' }];
    await assert.rejects(barrier.get('k'), SealedError);
    await assert.rejects(barrier.put('k', bytes('v')), SealedError);
    await assert.rejects(barrier.delete('k'), SealedError);
    await assert.rejects(barrier.list(''), SealedError);
    await assert.rejects(barrier.transaction(ops), SealedError);
    await assert.rejects(barrier.rotate(), SealedError);
    assert.throws(() => barrier.keyStatus(), SealedError);
  });

  it('does not decrypt a value that arrives after the barrier was sealed', async () => {
    const inner = new InmemStorage();
    const { barrier, rootKey } = await openBarrier(inner);
    await barrier.put('k', bytes('v'));
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: StorageBackend = {
      get: async (key) => {
        if (key === 'k') await gate;
        return inner.get(key);
      },
      put: (key, value) => inner.put(key, value),
      delete: (key) => inner.delete(key),
      list: (prefix) => inner.list(prefix),
      transaction: (operations) => inner.transaction(operations),
      openSnapshot: () => inner.openSnapshot(),
      replaceAll: (entries) => inner.replaceAll(entries),
      close: () => inner.close(),
    };
    const reading = new AesGcmBarrier({ physical: slow, random: new SeededRandom(9), clock: new FakeClock(0) });
    await reading.unseal(rootKey);
    const pending = reading.get('k');
    reading.seal();
    release();
    await assert.rejects(pending, SealedError);
  });

  it('keeps old values readable after a rotation and writes new ones under the new term', async () => {
    const clock = new FakeClock(1_000);
    const { barrier, physical, rootKey } = await openBarrier(new InmemStorage(), clock);
    await barrier.put('old', bytes('written under term 1'));
    assert.deepEqual(barrier.keyStatus(), { term: 1, installTimeMs: 1_000, encryptions: 1 });
    clock.advance(60_000);
    assert.deepEqual(await barrier.rotate(), { term: 2, installTimeMs: 61_000, encryptions: 0 });
    await barrier.put('new', bytes('written under term 2'));
    assert.equal(termOf(await physical.get('old')), 1);
    assert.equal(termOf(await physical.get('new')), 2);
    assert.equal(termOf(await physical.get(ROOT_KEY_PATH)), 2);
    assert.equal(text(await barrier.get('old')), 'written under term 1');

    barrier.seal();
    await barrier.unseal(rootKey);
    assert.equal(barrier.keyStatus().term, 2);
    assert.equal(text(await barrier.get('old')), 'written under term 1');
    assert.equal(text(await barrier.get('new')), 'written under term 2');
  });

  it('writes nothing of a batch holding a value that is not bytes', async () => {
    const { barrier, physical } = await openBarrier();
    const ops = [
      { op: 'put', key: 'a', value: bytes('1') },
      { op: 'put', key: 'b', value: 'text' },
    ] as unknown as StorageOperation[];
    await assert.rejects(barrier.transaction(ops), InternalError);
    assert.equal(await physical.get('a'), undefined);
  });

  it('keeps the keyring encrypted under the root key and stores no key in the clear', async () => {
    const { barrier, physical, rootKey } = await openBarrier();
    const status = barrier.keyStatus();
    const all = Buffer.concat([(await physical.get(KEYRING_PATH))!, (await physical.get(ROOT_KEY_PATH))!]);
    assert.equal(all.indexOf(Buffer.from(rootKey)), -1);
    assert.equal(all.indexOf(Buffer.from('active_term')), -1);
    assert.equal(status.term, 1);
  });

  it('leaves no plaintext secret in the SQLite file or its WAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-barrier-'));
    const path = join(dir, 'ward.db');
    try {
      const secrets = Array.from({ length: 50 }, (_, i) => `hunter2-very-secret-password-${i}`);
      const physical = new SqliteStorage({ path });
      const { barrier, rootKey } = await openBarrier(physical);
      for (const [i, secret] of secrets.entries()) await barrier.put(`logical/kv/data/s${i}`, bytes(secret));
      // The scanner finds what is written without the barrier, so an empty result means something.
      await physical.put('canary', bytes('plain-canary-value'));
      const needles = [...secrets.map((s) => Buffer.from(s)), Buffer.from(rootKey), Buffer.from('"active_term"')];

      const scan = () => Buffer.concat([path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f)));
      const whileOpen = scan();
      assert.notEqual(whileOpen.indexOf('plain-canary-value'), -1);
      for (const needle of needles) assert.equal(whileOpen.indexOf(needle), -1, needle.toString('hex'));

      await physical.close(); // the last connection checkpoints the WAL into the main file
      const afterClose = scan();
      assert.notEqual(afterClose.indexOf('plain-canary-value'), -1);
      for (const needle of needles) assert.equal(afterClose.indexOf(needle), -1, needle.toString('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
