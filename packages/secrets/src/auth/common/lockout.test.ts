import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { TooManyRequestsError } from '../../logical/errors.js';
import { Lockout, type LoginAttempt } from './lockout.js';

/** `n` attempts for `name` one after another, settled as failures. */
async function fail(lockout: Lockout, name: string, n: number, isKnownUser = true) {
  for (let i = 0; i < n; i++) (await lockout.acquire(name, isKnownUser))?.settle(false);
}

/** Whether `promise` has settled by the end of this turn of the event loop. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (
    (await Promise.race([promise.then(() => true), new Promise((r) => setImmediate(() => r(pending)))])) !== pending
  );
}

describe('Lockout', () => {
  it('locks after 5 failures and unlocks after 15 minutes', async () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    await fail(lockout, 'a', 4);
    assert.equal(lockout.isLocked('a'), false);
    await fail(lockout, 'a', 1);
    assert.equal(lockout.isLocked('a'), true);
    assert.equal(await lockout.acquire('a', true), undefined);
    assert.deepEqual(lockout.locked(), [{ aliasName: 'a', lockedSinceMs: 0 }]);
    clock.advance(15 * 60_000);
    assert.equal(lockout.isLocked('a'), false);
    assert.notEqual(await lockout.acquire('a', true), undefined);
  });

  it('lets an attempt beyond the failures left wait for a place, and admits it when one frees (issue 28)', async () => {
    const lockout = new Lockout(new FakeClock(0));
    const running = await Promise.all(Array.from({ length: 5 }, () => lockout.acquire('r', true)));
    assert.ok(running.every((a) => a !== undefined));
    const sixth = lockout.acquire('r', true);
    assert.equal(await isSettled(sixth), false, 'a sixth concurrent attempt waits; it is not checked yet');
    running[0]?.settle(true);
    const admitted = await sixth;
    assert.notEqual(admitted, undefined, 'the settled attempt freed its place');
    const seventh = lockout.acquire('r', true);
    assert.equal(await isSettled(seventh), false, 'the five running keep theirs');
    for (const a of running.slice(1)) a?.settle(false);
    assert.equal(lockout.isLocked('r'), false, 'the success reset the count before these four failures');
    admitted?.settle(false);
    assert.equal(lockout.isLocked('r'), true);
    assert.equal(await seventh, undefined, 'a waiting attempt is refused once the name locks');
  });

  it('admits waiting correct logins one place at a time: every one of 20 gets in', async () => {
    const lockout = new Lockout(new FakeClock(0));
    const admitted: LoginAttempt[] = [];
    const all = Array.from({ length: 20 }, async () => {
      const attempt = await lockout.acquire('burst', true);
      assert.ok(attempt);
      admitted.push(attempt);
      await new Promise((r) => setImmediate(r));
      attempt.settle(true);
    });
    await Promise.all(all);
    assert.equal(admitted.length, 20);
  });

  it('answers 429 when the queue of a name is full or the wait runs out', async () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock, undefined, undefined, { maxWaitingPerName: 1, maxWaitMs: 1000 });
    await Promise.all(Array.from({ length: 5 }, () => lockout.acquire('q', true)));
    const waiting = lockout.acquire('q', true);
    await assert.rejects(lockout.acquire('q', true), TooManyRequestsError);
    clock.advance(1000);
    await assert.rejects(waiting, TooManyRequestsError);
  });

  it('forgets failures older than the counter reset, and on success', async () => {
    const clock = new FakeClock(0);
    const lockout = new Lockout(clock);
    await fail(lockout, 'b', 4);
    clock.advance(16 * 60_000);
    await fail(lockout, 'b', 1);
    assert.equal(lockout.isLocked('b'), false, 'the count restarted');
    await fail(lockout, 'b', 3);
    (await lockout.acquire('b', true))?.settle(true);
    await fail(lockout, 'b', 1);
    assert.equal(lockout.isLocked('b'), false);
  });

  it('counts unknown names too, keeps a bounded number of them, and lists only existing users', async () => {
    const lockout = new Lockout(new FakeClock(0), undefined, 2);
    await fail(lockout, 'ghost', 5, false);
    assert.equal(await lockout.acquire('ghost', false), undefined, 'an unknown name is refused like a locked user');
    assert.deepEqual(lockout.locked(), []);
    await fail(lockout, 'other1', 1, false);
    await fail(lockout, 'other2', 1, false);
    assert.notEqual(await lockout.acquire('ghost', false), undefined, 'the oldest unknown name was forgotten');
  });

  it('does nothing when disabled, and unlock clears a lock', async () => {
    const clock = new FakeClock(0);
    const off = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: true });
    await fail(off, 'c', 3);
    assert.equal(off.isLocked('c'), false);
    const on = new Lockout(clock, { threshold: 1, durationMs: 1000, counterResetMs: 1000, disabled: false });
    await fail(on, 'c', 1);
    assert.equal(on.isLocked('c'), true);
    on.unlock('c');
    assert.equal(on.isLocked('c'), false);
  });
});
