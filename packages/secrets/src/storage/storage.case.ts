import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from './storage.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : new TextDecoder().decode(value));

/**
 * The contract every `StorageBackend` keeps, in the manner of OpenBao's `ExerciseBackend`.
 * Each backend's test calls this inside its `describe`; `make` returns a fresh, empty backend.
 */
export function storageCases(make: () => Promise<StorageBackend>): void {
  async function withBackend(body: (s: StorageBackend) => Promise<void>): Promise<void> {
    const s = await make();
    try {
      await body(s);
    } finally {
      await s.close();
    }
  }

  it('gets what was put, overwrites it, and forgets it after delete', () =>
    withBackend(async (s) => {
      assert.equal(await s.get('a/b'), undefined);
      await s.put('a/b', bytes('one'));
      assert.equal(text(await s.get('a/b')), 'one');
      await s.put('a/b', bytes('two'));
      assert.equal(text(await s.get('a/b')), 'two');
      await s.delete('a/b');
      assert.equal(await s.get('a/b'), undefined);
      await s.delete('a/b');
      await s.delete('never/there');
    }));

  it('says whether it holds exactly given bytes at a key, when it answers holds', () =>
    withBackend(async (s) => {
      if (!s.holds) return; // optional: the barrier then reads and compares
      assert.equal(await s.holds('h/k', bytes('one')), false);
      await s.put('h/k', bytes('one'));
      assert.equal(await s.holds('h/k', bytes('one')), true);
      assert.equal(await s.holds('h/k', bytes('on')), false);
      assert.equal(await s.holds('h/k', bytes('one!')), false);
      assert.equal(await s.holds('h/other', bytes('one')), false);
      const view = new Uint8Array([0, ...bytes('one'), 0]).subarray(1, 4);
      assert.equal(await s.holds('h/k', view), true, 'only the bytes of a view count');
      await s.put('h/empty', new Uint8Array(0));
      assert.equal(await s.holds('h/empty', new Uint8Array(0)), true);
      await s.delete('h/k');
      assert.equal(await s.holds('h/k', bytes('one')), false);
    }));

  it('stores empty and binary values byte for byte', () =>
    withBackend(async (s) => {
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      await s.put('bin', all);
      await s.put('empty', new Uint8Array(0));
      assert.deepEqual(new Uint8Array((await s.get('bin')) ?? []), all);
      assert.equal((await s.get('empty'))?.length, 0);
    }));

  it('keeps only the bytes of a view, not the rest of its buffer', () =>
    withBackend(async (s) => {
      const whole = bytes('xxhelloyy');
      await s.put('view', whole.subarray(2, 7));
      assert.equal(text(await s.get('view')), 'hello');
      // Node's pooled small Buffers are views into a shared slab.
      await s.put('pooled', Buffer.from('abc'));
      assert.equal(text(await s.get('pooled')), 'abc');
    }));

  it('neither keeps the caller’s buffer nor hands out its own', () =>
    withBackend(async (s) => {
      const input = Buffer.from('secret');
      await s.put('k', input);
      input.fill(0);
      const out = await s.get('k');
      assert.ok(out);
      out.fill(0);
      assert.equal(text(await s.get('k')), 'secret');
    }));

  it('lists the direct children of a prefix, folding deeper keys into one entry ending in /', () =>
    withBackend(async (s) => {
      for (const k of ['a/b', 'a/c/d', 'a/c/e/f', 'a/c-', 'a/c', 'a/d/', 'ab', 'e']) await s.put(k, bytes('1'));
      assert.deepEqual(await s.list('a/'), ['b', 'c', 'c-', 'c/', 'd/']);
      assert.deepEqual(await s.list('a/c/'), ['d', 'e/']);
    }));

  it("lists the top level for ''", () =>
    withBackend(async (s) => {
      assert.deepEqual(await s.list(''), []);
      for (const k of ['sys/x', 'core/keyring', 'core/seal-config', 'logical/u/k', 'top']) await s.put(k, bytes('1'));
      assert.deepEqual(await s.list(''), ['core/', 'logical/', 'sys/', 'top']);
    }));

  it('lists a missing prefix as []', () =>
    withBackend(async (s) => {
      await s.put('a/b', bytes('1'));
      assert.deepEqual(await s.list('nothing/'), []);
      assert.deepEqual(await s.list('a/b/'), []);
    }));

  it('stops listing where the prefix ends, after a deleted child', () =>
    withBackend(async (s) => {
      for (const k of ['p/a', 'p/b/c', 'p0', 'q/z']) await s.put(k, bytes('1'));
      await s.delete('p/b/c');
      assert.deepEqual(await s.list('p/'), ['a']);
    }));

  it('treats % and _ literally (no LIKE patterns) and handles unicode keys', () =>
    withBackend(async (s) => {
      for (const k of ['x%/a', 'x_/b', 'xy/c', 'x\\/d', 'ünï/cödé', 'ünï/😀', 'ünï/～', 'ünï/日本/語']) {
        await s.put(k, bytes(k));
      }
      assert.deepEqual(await s.list('x%/'), ['a']);
      assert.deepEqual(await s.list('x_/'), ['b']);
      assert.deepEqual(await s.list('x\\/'), ['d']);
      // Code-point (UTF-8 byte) order: U+FF5E sorts before U+1F600.
      assert.deepEqual(await s.list('ünï/'), ['cödé', '日本/', '～', '😀']);
      assert.equal(text(await s.get('ünï/😀')), 'ünï/😀');
    }));

  it('applies a transaction in order', () =>
    withBackend(async (s) => {
      await s.put('gone', bytes('old'));
      await s.transaction([
        { op: 'put', key: 't/a', value: bytes('1') },
        { op: 'put', key: 't/a', value: bytes('2') },
        { op: 'put', key: 't/b', value: bytes('3') },
        { op: 'delete', key: 't/b' },
        { op: 'delete', key: 'gone' },
      ]);
      assert.equal(text(await s.get('t/a')), '2');
      assert.equal(await s.get('t/b'), undefined);
      assert.equal(await s.get('gone'), undefined);
      await s.transaction([]);
    }));

  it('applies nothing of a transaction when an operation in the middle fails', () =>
    withBackend(async (s) => {
      await s.put('keep', bytes('old'));
      const operations = [
        { op: 'put', key: 'keep', value: bytes('new') },
        { op: 'delete', key: 'keep' },
        { op: 'put', key: 'added', value: bytes('1') },
        // Not bytes: the backend must refuse it, and by then three operations are behind it.
        { op: 'put', key: 'bad', value: 'not bytes' },
        { op: 'put', key: 'after', value: bytes('1') },
      ] as unknown as StorageOperation[];
      await assert.rejects(s.transaction(operations));
      assert.equal(text(await s.get('keep')), 'old');
      assert.equal(await s.get('added'), undefined);
      assert.equal(await s.get('bad'), undefined);
      assert.equal(await s.get('after'), undefined);
      assert.deepEqual(await s.list(''), ['keep']);
    }));

  it('refuses a put whose value is not bytes', () =>
    withBackend(async (s) => {
      await assert.rejects(s.put('k', 'text' as unknown as Uint8Array));
      assert.equal(await s.get('k'), undefined);
    }));

  it('copies transaction values too', () =>
    withBackend(async (s) => {
      const value = bytes('v');
      await s.transaction([{ op: 'put', key: 'k', value }]);
      value.fill(0);
      assert.equal(text(await s.get('k')), 'v');
    }));

  it('snapshots every entry as of the moment it was opened, while writes go on', () =>
    withBackend(async (s) => {
      await s.put('b/1', bytes('before'));
      await s.put('a', bytes('kept'));
      await s.put('c', bytes('deleted later'));
      const snap = await s.openSnapshot();
      await s.put('b/1', bytes('after'));
      await s.put('new', bytes('after'));
      await s.delete('c');
      assert.equal(snap.count, 3);
      assert.deepEqual(await readAll(snap), [
        ['a', 'kept'],
        ['b/1', 'before'],
        ['c', 'deleted later'],
      ]);
      assert.equal(text(await s.get('b/1')), 'after');
      const later = await s.openSnapshot();
      assert.equal(later.count, 3);
      await later.close();
      await later.close();
    }));

  it('replaces the whole store with a snapshot’s entries', () =>
    withBackend(async (s) => {
      await s.put('a', bytes('1'));
      await s.put('b/c', bytes('2'));
      const snap = await s.openSnapshot();
      const saved: StorageEntry[] = [];
      for await (const entry of snap.entries()) saved.push(entry);
      await s.put('a', bytes('changed'));
      await s.put('later/x', bytes('gone after restore'));
      await s.delete('b/c');
      await s.replaceAll(fromArray(saved));
      assert.equal(text(await s.get('a')), '1');
      assert.equal(text(await s.get('b/c')), '2');
      assert.equal(await s.get('later/x'), undefined);
      assert.deepEqual(await s.list(''), ['a', 'b/']);
      await s.replaceAll(fromArray([]));
      assert.deepEqual(await s.list(''), []);
    }));

  it('leaves the store untouched when a restore’s source fails part-way', () =>
    withBackend(async (s) => {
      await s.put('old', bytes('kept'));
      async function* failing(): AsyncGenerator<StorageEntry> {
        yield { key: 'new', value: bytes('1') };
        throw new Error('truncated');
      }
      await assert.rejects(s.replaceAll(failing()), /truncated/);
      const bad = [
        { key: 'new', value: bytes('1') },
        { key: 'bad', value: 'not bytes' },
      ] as unknown as StorageEntry[];
      await assert.rejects(s.replaceAll(fromArray(bad)));
      assert.deepEqual(await s.list(''), ['old']);
      assert.equal(text(await s.get('old')), 'kept');
      await s.put('still', bytes('writable'));
      assert.equal(text(await s.get('still')), 'writable');
    }));

  it('restores more entries than one batch, byte for byte', () =>
    withBackend(async (s) => {
      const many = Array.from({ length: 2_500 }, (_, i) => ({ key: `k/${i}`, value: Uint8Array.of(i % 256, 0, 255) }));
      await s.replaceAll(fromArray(many));
      const snap = await s.openSnapshot();
      assert.equal(snap.count, many.length);
      let seen = 0;
      for await (const { key, value } of snap.entries()) {
        const i = Number(key.slice(2));
        assert.deepEqual(new Uint8Array(value), Uint8Array.of(i % 256, 0, 255));
        seen++;
      }
      assert.equal(seen, many.length);
    }));
}

async function readAll(snap: StorageSnapshot): Promise<[string, string | undefined][]> {
  const out: [string, string | undefined][] = [];
  for await (const { key, value } of snap.entries()) out.push([key, text(value)]);
  return out;
}

async function* fromArray(entries: StorageEntry[]): AsyncGenerator<StorageEntry> {
  yield* entries;
}
