import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { remainingSuspicionMs, Suspicion, suspicionMinMs } from './suspicion.js';

describe('Suspicion', () => {
  it('scales the minimum timeout with log10 of the cluster size', () => {
    assert.equal(suspicionMinMs(6, 3, 5000), 30_000);
    assert.equal(suspicionMinMs(4, 100, 1000), 8000);
  });

  it('fires at the minimum when no confirmations are expected', () => {
    const clock = new FakeClock(0);
    let fired = 0;
    new Suspicion(clock, 'a', 0, 100, 600, () => fired++);
    clock.advance(99);
    assert.equal(fired, 0);
    clock.advance(1);
    assert.equal(fired, 1);
  });

  it('shortens the timeout as independent members confirm, and ignores repeats', () => {
    const clock = new FakeClock(0);
    let fired = 0;
    const s = new Suspicion(clock, 'a', 2, 100, 600, () => fired++);
    assert.equal(s.confirm('a'), false);
    assert.equal(s.confirm('b'), true);
    assert.equal(s.confirm('b'), false);
    // One of two confirmations: 600 − ln2/ln3 × 500 ≈ 284 ms.
    clock.advance(283);
    assert.equal(fired, 0);
    clock.advance(2);
    assert.equal(fired, 1);
    assert.equal(remainingSuspicionMs(2, 2, 0, 100, 600), 100);
  });
});
