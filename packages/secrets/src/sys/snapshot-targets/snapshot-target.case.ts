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
): void {
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

  it('leaves nothing behind when the source fails part-way', async () => {
    const target = await make();
    await assert.rejects(target.put('broken-1.snap', failingAfter('partial')));
    assert.deepEqual(await target.list('broken-'), []);
  });
}
