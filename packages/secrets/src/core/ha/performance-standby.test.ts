import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, type Logger } from '@ward/base';
import type { ChangeFeed, StorageChange } from '../../storage/change-feed.js';
import type { InvalidationTargets } from './cache-invalidation.js';
import { PerformanceStandby } from './performance-standby.js';

/** A feed the test drives: `push` delivers one change and resolves once it is handled. */
function drivenFeed(startRevision: number) {
  let handler: ((change: StorageChange) => Promise<void>) | undefined;
  const feed: ChangeFeed = {
    start: async (h) => {
      handler = h;
      return startRevision;
    },
    stop: async () => {},
    writtenRevision: () => 0,
  };
  const push = (revision: number, keys: string[]) => handler?.({ revision, keys, isEverything: false });
  return { feed, push };
}

const quiet = { warn: () => {}, info: () => {}, child: () => quiet } as unknown as Logger;

function standby(o: { startRevision?: number; failLoads?: () => boolean } = {}) {
  const clock = new FakeClock(0);
  const { feed, push } = drivenFeed(o.startRevision ?? 10);
  const forgotten: string[] = [];
  let loads = 0;
  const targets = {
    forgetValue: (key: string) => forgotten.push(key),
    reloadKeyring: async () => {},
    forgetToken: () => {},
    forgetPolicy: () => {},
    reloadIdentity: async () => {},
  } satisfies InvalidationTargets;
  const perf = new PerformanceStandby(
    feed,
    {
      load: async () => {
        loads++;
        if (o.failLoads?.()) throw new Error('a write on a read-only barrier');
      },
      unload: async () => {},
      targets: () => targets,
    },
    { clock, logger: quiet },
  );
  return { perf, clock, push, forgotten, loads: () => loads };
}

// Issue 19 points 5 and 6: read-your-writes on a performance standby.
describe('PerformanceStandby', () => {
  it('reaches a revision once its change is handled, the caches first', async () => {
    const s = standby();
    await s.perf.start();
    assert.equal(s.perf.reached, 10);
    assert.equal(await s.perf.waitFor(10, 1_000), true);
    const waiting = s.perf.waitFor(12, 1_000);
    await s.push(12, ['logical/u/a']);
    assert.equal(await waiting, true);
    assert.deepEqual(s.forgotten, ['logical/u/a']);
  });

  it('answers "not reached" when the wait runs out (the HTTP layer then answers 412)', async () => {
    const s = standby();
    await s.perf.start();
    const waiting = s.perf.waitFor(50, 2_000);
    s.clock.advance(1_999);
    await s.push(11, ['x']);
    s.clock.advance(1);
    assert.equal(await waiting, false);
  });

  it('reloads everything on a structural change, and tries a failed load again on the next change', async () => {
    let failing = true;
    const s = standby({ failLoads: () => failing });
    await s.perf.start();
    assert.equal(s.perf.isServing, false);
    // Nothing loaded and nothing loading: a request goes to the active server without waiting.
    assert.equal(await s.perf.waitFor(0, 2_000), false);
    failing = false;
    await s.push(11, ['sys/policy/p']);
    assert.equal(s.perf.isServing, true);
    assert.equal(s.loads(), 2);
    await s.push(12, ['core/mounts']);
    assert.equal(s.loads(), 3);
    assert.equal(s.perf.reached, 12);
  });
});
