import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, type Logger, silentLogger } from '@ward/base';
import { Scheduler } from './scheduler.js';

/** Moves the clock one step at a time, letting each run finish (a run re-arms only when it ends). */
async function advance(clock: FakeClock, scheduler: Scheduler, ms: number, stepMs = 1_000) {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advance(stepMs);
    await scheduler.settled();
  }
}

describe('Scheduler', () => {
  it('runs a task every interval, one interval after the previous run ended', async () => {
    const clock = new FakeClock(0);
    const scheduler = new Scheduler({ clock, logger: silentLogger });
    const runs: number[] = [];
    scheduler.start('m/', [{ name: 'tick', intervalMs: 10_000, run: async () => void runs.push(clock.now()) }]);
    await advance(clock, scheduler, 35_000);
    assert.deepEqual(runs, [10_000, 20_000, 30_000]);
  });

  it('never runs a task while its previous run is still going', async () => {
    const clock = new FakeClock(0);
    const scheduler = new Scheduler({ clock, logger: silentLogger });
    let active = 0;
    let maxActive = 0;
    let release: () => void = () => {};
    scheduler.start('m/', [
      {
        name: 'slow',
        intervalMs: 1_000,
        run: async () => {
          active++;
          maxActive = Math.max(maxActive, active);
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          active--;
        },
      },
    ]);
    clock.advance(1_000);
    clock.advance(10_000); // ten intervals pass while the first run hangs
    assert.equal(active, 1);
    release();
    await scheduler.settled();
    assert.equal(maxActive, 1);
    assert.equal(clock.pendingTimers, 1, 're-armed once the run ended');
  });

  it('keeps a failing task on its schedule', async () => {
    const clock = new FakeClock(0);
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (msg: string) => void warnings.push(msg), child: () => logger };
    const scheduler = new Scheduler({ clock, logger });
    let runs = 0;
    scheduler.start('m/', [
      {
        name: 'fails',
        intervalMs: 1_000,
        run: async () => {
          runs++;
          throw new Error('backend down');
        },
      },
    ]);
    await advance(clock, scheduler, 3_000);
    assert.equal(runs, 3);
    assert.deepEqual(warnings, ['periodic task failed', 'periodic task failed', 'periodic task failed']);
  });

  it('stops: waits for the run under way, and runs no more', async () => {
    const clock = new FakeClock(0);
    const scheduler = new Scheduler({ clock, logger: silentLogger });
    let finished = 0;
    let release: () => void = () => {};
    const group = scheduler.start('m/', [
      {
        name: 'tick',
        intervalMs: 1_000,
        run: async () => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          finished++;
        },
      },
    ]);
    clock.advance(1_000);
    let stopped = false;
    const stopping = group.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    assert.equal(stopped, false, 'stop waits for the run');
    release();
    await stopping;
    assert.equal(finished, 1);
    assert.equal(clock.pendingTimers, 0);
    clock.advance(10_000);
    assert.equal(finished, 1);
  });

  it('stopAll stops every group (seal)', async () => {
    const clock = new FakeClock(0);
    const scheduler = new Scheduler({ clock, logger: silentLogger });
    let runs = 0;
    const task = { name: 't', intervalMs: 1_000, run: async () => void runs++ };
    scheduler.start('a/', [task]);
    scheduler.start('b/', [task]);
    await scheduler.stopAll();
    await advance(clock, scheduler, 5_000);
    assert.equal(runs, 0);
    assert.equal(clock.pendingTimers, 0);
  });

  it('skips turns while the server is not the active one', async () => {
    const clock = new FakeClock(0);
    let isActive = false;
    const scheduler = new Scheduler({ clock, logger: silentLogger, isActive: () => isActive });
    let runs = 0;
    scheduler.start('m/', [{ name: 't', intervalMs: 1_000, run: async () => void runs++ }]);
    await advance(clock, scheduler, 3_000);
    assert.equal(runs, 0);
    isActive = true;
    await advance(clock, scheduler, 2_000);
    assert.equal(runs, 2);
  });

  it('runs a task whose interval is longer than a Node timer holds (30 days) once per interval', async () => {
    const clock = new FakeClock(0);
    const scheduler = new Scheduler({ clock, logger: silentLogger });
    const dayMs = 86_400_000;
    const runs: number[] = [];
    scheduler.start('m/', [{ name: 'rotate', intervalMs: 30 * dayMs, run: async () => void runs.push(clock.now()) }]);
    await advance(clock, scheduler, 65 * dayMs, dayMs);
    assert.deepEqual(runs, [30 * dayMs, 60 * dayMs]);
  });

  it('refuses an interval that is not a positive whole number of milliseconds', () => {
    const scheduler = new Scheduler({ clock: new FakeClock(0), logger: silentLogger });
    for (const intervalMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => scheduler.start('m/', [{ name: 't', intervalMs, run: async () => {} }]));
    }
  });
});
