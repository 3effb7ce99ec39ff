import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, silentLogger } from '@ward/base';
import { RetryJoiner } from './retry-join.js';

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
};

/** A join that fails until `succeedAt` (fake ms), recording when each attempt ran. */
function fakeJoin(clock: FakeClock, succeedAt: number) {
  const calls: number[] = [];
  const join = async () => {
    calls.push(clock.now());
    return clock.now() >= succeedAt ? { numJoined: 1, errors: [] } : { numJoined: 0, errors: ['refused'] };
  };
  return { calls, join };
}

/** Starts `r` and moves `clock` on by `ms` in 50 ms steps, letting its attempts run between. */
async function startAndRun(r: RetryJoiner, clock: FakeClock, ms: number) {
  r.start();
  await settle();
  for (let t = 0; t < ms; t += 50) {
    clock.advance(50);
    await settle();
  }
}

describe('retry_join', () => {
  it('retries with doubling waits capped at retry_interval until a peer answers', async () => {
    const clock = new FakeClock(0);
    const { calls, join } = fakeJoin(clock, 3000);
    const r = new RetryJoiner({ clock, log: silentLogger, addresses: ['a'], intervalMs: 1000, max: 0, join });
    await startAndRun(r, clock, 5000);
    assert.deepEqual(calls, [0, 250, 750, 1750, 2750, 3750]);
    assert.equal(await r.done, true);
  });

  it('gives up after retry_max attempts', async () => {
    const clock = new FakeClock(0);
    const { calls, join } = fakeJoin(clock, Number.POSITIVE_INFINITY);
    const r = new RetryJoiner({ clock, log: silentLogger, addresses: ['a'], intervalMs: 100, max: 3, join });
    await startAndRun(r, clock, 2000);
    assert.equal(calls.length, 3);
    assert.equal(await r.done, false);
  });
});
