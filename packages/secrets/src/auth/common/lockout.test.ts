import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { Lockout } from './lockout.js';

describe('Lockout', () => {
  it('locks after 5 failures and unlocks after 15 minutes', () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    for (let i = 0; i < 4; i++) lockout.recordFailure('a');
    assert.equal(lockout.isLocked('a'), false);
    lockout.recordFailure('a');
    assert.equal(lockout.isLocked('a'), true);
    assert.deepEqual(lockout.locked(), [{ aliasName: 'a', lockedSinceMs: 0 }]);
    clock.advance(15 * 60_000);
    assert.equal(lockout.isLocked('a'), false);
  });

  it('forgets failures older than the counter reset, and on success', () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    for (let i = 0; i < 4; i++) lockout.recordFailure('b');
    clock.advance(16 * 60_000);
    lockout.recordFailure('b');
    assert.equal(lockout.isLocked('b'), false, 'the count restarted');
    for (let i = 0; i < 3; i++) lockout.recordFailure('b');
    lockout.recordSuccess('b');
    lockout.recordFailure('b');
    assert.equal(lockout.isLocked('b'), false);
  });

  it('does nothing when disabled, and unlock clears a lock', () => {
    const clock = new FakeClock(0);
    const off = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: true });
    off.recordFailure('c');
    assert.equal(off.isLocked('c'), false);
    const on = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: false });
    on.recordFailure('c');
    assert.equal(on.isLocked('c'), true);
    on.unlock('c');
    assert.equal(on.isLocked('c'), false);
  });
});
