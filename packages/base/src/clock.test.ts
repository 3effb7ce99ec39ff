import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, MAX_TIMER_MS, steppedTimeout, systemClock } from './clock.js';

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

describe('long delays', () => {
  it('are waited out in steps a timer can hold, firing once at the full delay', () => {
    const inner = new FakeClock(0);
    const fired: number[] = [];
    const arm = (fn: () => void, ms: number) => inner.setTimeout(fn, ms);
    steppedTimeout(arm, () => fired.push(inner.now()), 250, 100);
    inner.advance(249);
    assert.deepEqual(fired, []);
    assert.equal(inner.pendingTimers, 1, 'one step armed at a time');
    inner.advance(1);
    assert.deepEqual(fired, [250]);
    assert.equal(inner.pendingTimers, 0);
  });

  it('can be cancelled between steps', () => {
    const inner = new FakeClock(0);
    let fired = 0;
    const cancel = steppedTimeout(
      (fn, ms) => inner.setTimeout(fn, ms),
      () => fired++,
      250,
      100,
    );
    inner.advance(150);
    cancel();
    inner.advance(1_000);
    assert.equal(fired, 0);
    assert.equal(inner.pendingTimers, 0);
  });

  it('on the system clock do not fire early (Node alone fires a delay above 2^31-1 ms after 1 ms)', async () => {
    let fired = false;
    const cancel = systemClock.setTimeout(() => {
      fired = true;
    }, MAX_TIMER_MS + 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    cancel();
    assert.equal(fired, false);
  });

  it('on the system clock still fire short delays', async () => {
    // The clock's timers are unref'd; this one keeps the process alive meanwhile.
    const keepAlive = setTimeout(() => {}, 1_000);
    await new Promise<void>((resolve) => systemClock.setTimeout(resolve, 5));
    clearTimeout(keepAlive);
  });
});
