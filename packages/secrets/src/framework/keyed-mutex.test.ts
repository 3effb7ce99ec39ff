import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedMutex } from './keyed-mutex.js';

/** A promise the test settles by hand, to hold a critical section open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedMutex', () => {
  it('runs work on one key one at a time, in the order it was queued', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const first = gate();
    const a = mutex.run('k', async () => {
      events.push('a start');
      await first.opened;
      events.push('a end');
      return 'a';
    });
    const b = mutex.run('k', async () => {
      events.push('b start');
      return 'b';
    });
    await tick();
    assert.deepEqual(events, ['a start'], 'b must wait while a holds the key');
    first.open();
    assert.deepEqual(await Promise.all([a, b]), ['a', 'b']);
    assert.deepEqual(events, ['a start', 'a end', 'b start']);
  });

  it('does not hold up work on other keys', async () => {
    const mutex = new KeyedMutex();
    const held = gate();
    const slow = mutex.run('a', () => held.opened.then(() => 'slow'));
    assert.equal(await mutex.run('b', async () => 'other'), 'other');
    held.open();
    assert.equal(await slow, 'slow');
  });

  it('passes a failure to its own caller and still runs the work queued behind it', async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run('k', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => 'next');
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'next');
  });

  it('survives a function that throws before returning a promise', async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run('k', () => {
      throw new Error('sync');
    });
    await assert.rejects(failing, /sync/);
    assert.equal(await mutex.run('k', async () => 1), 1);
  });

  it('keeps read-modify-write on one key consistent under contention', async () => {
    const mutex = new KeyedMutex();
    let counter = 0;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        mutex.run('counter', async () => {
          const seen = counter;
          await tick();
          counter = seen + 1;
        }),
      ),
    );
    assert.equal(counter, 50);
  });

  it('serialises again after a key went idle', async () => {
    const mutex = new KeyedMutex();
    await mutex.run('k', async () => undefined);
    const events: string[] = [];
    const held = gate();
    const a = mutex.run('k', async () => {
      await held.opened;
      events.push('a');
    });
    const b = mutex.run('k', async () => {
      events.push('b');
    });
    await tick();
    assert.deepEqual(events, []);
    held.open();
    await Promise.all([a, b]);
    assert.deepEqual(events, ['a', 'b']);
  });
});
