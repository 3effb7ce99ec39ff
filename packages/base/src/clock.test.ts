import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, systemClock } from './clock.js';

describe('FakeClock', () => {
  it('fires due timers in order while advancing, with now() at each due time', () => {
    const clock = new FakeClock(0);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 200);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 100);
    const cancel = clock.setTimeout(() => seen.push(['never', clock.now()]), 150);
    cancel();
    clock.advance(250);
    assert.deepEqual(seen, [
      ['a', 100],
      ['b', 200],
    ]);
    assert.equal(clock.now(), 250);
    assert.equal(clock.pendingTimers, 0);
  });

  it('fires a timer scheduled by another timer when it falls inside the same advance', () => {
    const clock = new FakeClock(0);
    let fired = 0;
    clock.setTimeout(() => clock.setTimeout(() => fired++, 10), 10);
    clock.advance(15);
    assert.equal(fired, 0);
    clock.advance(5);
    assert.equal(fired, 1);
  });
});

describe('nowPrecise', () => {
  it('is the wall clock, to within a millisecond, with the fraction the platform has', () => {
    const before = Date.now();
    const precise = systemClock.nowPrecise();
    const after = Date.now();
    assert.ok(precise >= before && precise < after + 1, `${before} <= ${precise} < ${after} + 1`);
  });

  it('is now() on a FakeClock, so tests see exact times', () => {
    const clock = new FakeClock(1_000.25);
    assert.equal(clock.nowPrecise(), clock.now());
  });
});
