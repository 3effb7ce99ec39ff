import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { Lockout } from './lockout.js';

/** `n` attempts for `name`, settled as failures. */
function fail(lockout: Lockout, name: string, n: number, isKnownUser = true) {
  for (let i = 0; i < n; i++) lockout.reserve(name, isKnownUser)?.settle(false);
}

describe('Lockout', () => {
  it('locks after 5 failures and unlocks after 15 minutes', () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    fail(lockout, 'a', 4);
    assert.equal(lockout.isLocked('a'), false);
    fail(lockout, 'a', 1);
    assert.equal(lockout.isLocked('a'), true);
    assert.equal(lockout.reserve('a', true), undefined);
    assert.deepEqual(lockout.locked(), [{ aliasName: 'a', lockedSinceMs: 0 }]);
    clock.advance(15 * 60_000);
    assert.equal(lockout.isLocked('a'), false);
    assert.notEqual(lockout.reserve('a', true), undefined);
  });

  it('refuses attempts beyond the threshold while earlier ones are still being checked (issue 12)', () => {
    const lockout = new Lockout(new FakeClock(0));
    const running = Array.from({ length: 5 }, () => lockout.reserve('r', true));
    assert.ok(running.every((a) => a !== undefined));
    assert.equal(lockout.reserve('r', true), undefined, 'a sixth concurrent attempt is not checked');
    running[0]?.settle(true);
    const fifth = lockout.reserve('r', true);
    assert.notEqual(fifth, undefined, 'the settled attempt freed its place');
    assert.equal(lockout.reserve('r', true), undefined, 'the four still running keep theirs');
    for (const a of running.slice(1)) a?.settle(false);
    assert.equal(lockout.isLocked('r'), false, 'the success reset the count before these four failures');
    fifth?.settle(false);
    assert.equal(lockout.isLocked('r'), true);
  });

  it('forgets failures older than the counter reset, and on success', () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    fail(lockout, 'b', 4);
    clock.advance(16 * 60_000);
    fail(lockout, 'b', 1);
    assert.equal(lockout.isLocked('b'), false, 'the count restarted');
    fail(lockout, 'b', 3);
    lockout.reserve('b', true)?.settle(true);
    fail(lockout, 'b', 1);
    assert.equal(lockout.isLocked('b'), false);
  });

  it('counts unknown names too, keeps a bounded number of them, and lists only existing users', () => {
    const lockout = new Lockout(new FakeClock(0), undefined, 2);
    fail(lockout, 'ghost', 5, false);
    assert.equal(lockout.reserve('ghost', false), undefined, 'an unknown name is refused like a locked user');
    assert.deepEqual(lockout.locked(), []);
    fail(lockout, 'other1', 1, false);
    fail(lockout, 'other2', 1, false);
    assert.notEqual(lockout.reserve('ghost', false), undefined, 'the oldest unknown name was forgotten');
  });

  it('does nothing when disabled, and unlock clears a lock', () => {
    const clock = new FakeClock(0);
    const off = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: true });
    fail(off, 'c', 3);
    assert.equal(off.isLocked('c'), false);
    const on = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: false });
    fail(on, 'c', 1);
    assert.equal(on.isLocked('c'), true);
    on.unlock('c');
    assert.equal(on.isLocked('c'), false);
  });
});
