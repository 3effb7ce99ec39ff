import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeFeed, StorageChange } from './change-feed.js';
import type { StorageBackend } from './storage.js';

/** Two processes' views of one shared store: `feed` watches what `writer` (the other process) changes. */
export interface ChangeFeedFixture {
  feed: ChangeFeed;
  /** The same store as another process opens it. */
  writer: StorageBackend;
  /** The writer's own feed, for its written revision. */
  writerFeed: ChangeFeed;
  close(): Promise<void>;
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Collects delivered changes; `until` waits (bounded) for one matching `done`. */
function collector() {
  const seen: StorageChange[] = [];
  return {
    seen,
    handler: async (change: StorageChange) => {
      seen.push(change);
    },
    async until(done: (seen: StorageChange[]) => boolean): Promise<void> {
      for (let i = 0; i < 200 && !done(seen); i++) await sleep(25);
      assert.ok(done(seen), `the feed never delivered what was expected: ${JSON.stringify(seen)}`);
    },
  };
}

const keysOf = (seen: StorageChange[]) => seen.flatMap((c) => c.keys);

/**
 * The contract every `ChangeFeed` keeps, whatever store is under it. `make` returns a fresh
 * fixture over an empty store.
 */
export function changeFeedCases(make: () => Promise<ChangeFeedFixture>): void {
  async function withFixture(body: (f: ChangeFeedFixture) => Promise<void>): Promise<void> {
    const f = await make();
    try {
      await body(f);
    } finally {
      await f.feed.stop();
      await f.writerFeed.stop();
      await f.close();
    }
  }

  it('delivers the keys another process puts and deletes, in order, at rising revisions after the start', () =>
    withFixture(async (f) => {
      const c = collector();
      const started = await f.feed.start(c.handler);
      await f.writer.put('a/one', bytes('1'));
      await f.writer.put('b', bytes('2'));
      await f.writer.delete('a/one');
      await c.until((seen) => keysOf(seen).length >= 3);
      assert.deepEqual(keysOf(c.seen), ['a/one', 'b', 'a/one']);
      const revisions = c.seen.map((s) => s.revision);
      assert.ok(revisions.every((r, i) => r > (i === 0 ? started : (revisions[i - 1] as number))));
      assert.ok(c.seen.every((s) => !s.isEverything));
    }));

  it('delivers a transaction as one change naming every key it touched', () =>
    withFixture(async (f) => {
      await f.writer.put('w', bytes('0'));
      const c = collector();
      await f.feed.start(c.handler);
      await f.writer.transaction([
        { op: 'put', key: 'x', value: bytes('1') },
        { op: 'put', key: 'y/z', value: bytes('2') },
        { op: 'delete', key: 'w' },
      ]);
      await c.until((seen) => seen.some((s) => s.keys.includes('x')));
      assert.equal(c.seen.length, 1);
      assert.deepEqual(c.seen[0]?.keys.toSorted(), ['w', 'x', 'y/z']);
    }));

  it('reaches the revision the writer reports for its own write (read-your-writes)', () =>
    withFixture(async (f) => {
      const c = collector();
      await f.feed.start(c.handler);
      assert.equal(f.writerFeed.writtenRevision(), 0);
      await f.writer.put('mine', bytes('1'));
      const written = f.writerFeed.writtenRevision();
      assert.ok(written > 0);
      await c.until((seen) => seen.some((s) => s.revision >= written));
      assert.equal(c.seen.find((s) => s.revision === written)?.keys[0], 'mine');
    }));

  it('calls the handler one change at a time, and not at all once stopped', () =>
    withFixture(async (f) => {
      let running = 0;
      let overlapped = false;
      const c = collector();
      await f.feed.start(async (change) => {
        running++;
        overlapped ||= running > 1;
        await sleep(20);
        await c.handler(change);
        running--;
      });
      for (let i = 0; i < 5; i++) await f.writer.put(`k${i}`, bytes('v'));
      await c.until((seen) => seen.length >= 5);
      assert.equal(overlapped, false);
      await f.feed.stop();
      const count = c.seen.length;
      await f.writer.put('after', bytes('v'));
      await sleep(200);
      assert.equal(c.seen.length, count);
    }));
}
