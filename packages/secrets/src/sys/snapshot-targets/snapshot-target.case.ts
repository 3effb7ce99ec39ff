import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SnapshotTarget } from './snapshot-target.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function* failingAfter(part: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(part);
  throw new Error('source failed');
}

/**
 * The contract every `SnapshotTarget` keeps. `make` returns a target over an empty place;
 * `read` fetches an object's bytes by name (through the provider's own client), for checking.
 */
export function snapshotTargetCases(
  make: () => Promise<SnapshotTarget>,
  read: (target: SnapshotTarget, name: string) => Promise<string>,
  /** A target whose store cannot be reached, for remote targets. */
  makeUnreachable?: () => Promise<SnapshotTarget>,
): void {
  if (makeUnreachable) {
    it('fails when the store cannot be reached, and releases its source', async () => {
      let released = false;
      async function* source() {
        try {
          for (let i = 0; i < 1000; i++) yield new Uint8Array(64 * 1024);
        } finally {
          // The server's snapshot stream holds a consistent read of the store until it ends.
          released = true;
        }
      }
      await assert.rejects((await makeUnreachable()).put('unreachable-1.snap', source()));
      assert.ok(released, 'the source was left open');
    });
  }

  it('stores a streamed object, lists it with its size, and deletes it', async () => {
    const target = await make();
    const stored = await target.put('snap-0001.snap', chunks('hello ', 'world'));
    assert.equal(stored.size, 11);
    assert.ok(stored.url.length > 0);
    assert.equal(await read(target, 'snap-0001.snap'), 'hello world');
    assert.deepEqual(await target.list('snap-'), [{ name: 'snap-0001.snap', size: 11 }]);
    await target.delete('snap-0001.snap');
    assert.deepEqual(await target.list('snap-'), []);
    await target.delete('snap-0001.snap');
  });

  it('lists only names with the prefix, in name order', async () => {
    const target = await make();
    await target.put('a-0002.snap', chunks('2'));
    await target.put('a-0001.snap', chunks('1'));
    await target.put('b-0001.snap', chunks('x'));
    assert.deepEqual(
      (await target.list('a-')).map((o) => o.name),
      ['a-0001.snap', 'a-0002.snap'],
    );
  });

  it('streams an object larger than one upload part or block, byte for byte', async () => {
    const target = await make();
    // 11 MiB in 64 KiB chunks, each different, so a lost, repeated or reordered chunk shows.
    const parts = Array.from({ length: 176 }, (_, i) => `${i}:`.padEnd(64 * 1024, String.fromCharCode(97 + (i % 26))));
    const stored = await target.put('large-0001.snap', chunks(...parts));
    assert.equal(stored.size, 176 * 64 * 1024);
    assert.ok((await read(target, 'large-0001.snap')) === parts.join(''), 'content differs');
    assert.deepEqual(await target.list('large-'), [{ name: 'large-0001.snap', size: stored.size }]);
  });

  it('leaves nothing behind when the source fails part-way, before or after a first part', async () => {
    const target = await make();
    await assert.rejects(target.put('broken-1.snap', failingAfter('partial')));
    await assert.rejects(target.put('broken-2.snap', failingAfter('x'.repeat(6 * 1024 * 1024))));
    assert.deepEqual(await target.list('broken-'), []);
  });
}
