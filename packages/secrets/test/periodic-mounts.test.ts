import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer, withBackends } from '../src/server/testing.js';
import { createTickerBackend, TICK_INTERVAL_MS } from './fakes/ticker-engine.js';

// Issue 14: engines declare periodic work (`BackendSpec.periodic`); the core runs it on the
// injected clock per mount while unsealed, and stops it on unmount and seal.

describe('periodic work of mounts', () => {
  let clock: FakeClock;
  let t: TestServer;
  beforeEach(async () => {
    clock = new FakeClock('2024-01-01T00:00:00Z');
    t = await startTestServer({ clock, catalog: withBackends({ ticker: createTickerBackend }) });
    assert.equal((await t.request('POST', 'sys/mounts/tick', { body: { type: 'ticker' } })).status, 204);
  });
  afterEach(() => t.stop());

  async function tickFor(ms: number) {
    for (let passed = 0; passed < ms; passed += 1_000) {
      clock.advance(1_000);
      await t.server.core.scheduler.settled();
    }
  }
  const count = async () => (await t.request('GET', 'tick/count')).body.data.count;

  it('runs every interval while the mount exists', async () => {
    await tickFor(3 * TICK_INTERVAL_MS);
    assert.equal(await count(), 3);
  });

  it('stops on seal and starts again on unseal', async () => {
    await tickFor(TICK_INTERVAL_MS);
    assert.equal((await t.request('PUT', 'sys/seal')).status, 204);
    await tickFor(5 * TICK_INTERVAL_MS);
    await t.server.core.submitUnsealKey(t.unsealKey);
    assert.equal(await count(), 1, 'nothing ran while sealed');
    await tickFor(TICK_INTERVAL_MS);
    assert.equal(await count(), 2);
  });

  it('stops on unmount', async () => {
    await tickFor(TICK_INTERVAL_MS);
    const timers = clock.pendingTimers;
    assert.equal((await t.request('DELETE', 'sys/mounts/tick')).status, 204);
    assert.equal(clock.pendingTimers, timers - 1, 'the task timer is cancelled');
    await tickFor(3 * TICK_INTERVAL_MS);
    assert.equal((await t.request('POST', 'sys/mounts/tick', { body: { type: 'ticker' } })).status, 204);
    assert.equal(await count(), 0, 'a new mount starts from nothing, and the old task wrote nothing more');
  });
});

describe('periodic work of the built-in backends', () => {
  it('runs per namespace while it exists and the server is unsealed', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const runs: string[] = [];
    const t = await startTestServer({
      clock,
      wrapBuiltins: (builtins) => ({
        ...builtins,
        system: (kit, ctx) => ({
          ...builtins.system(kit, ctx),
          periodic: [
            { name: 'tick', intervalMs: TICK_INTERVAL_MS, run: async () => void runs.push(kit.namespace.path) },
          ],
        }),
      }),
    });
    const tick = async () => {
      runs.length = 0;
      clock.advance(TICK_INTERVAL_MS);
      await t.server.core.scheduler.settled();
      return [...runs].sort();
    };
    try {
      assert.equal((await t.request('POST', 'sys/namespaces/ns1')).status, 200);
      assert.deepEqual(await tick(), ['', 'ns1/']);
      assert.equal((await t.request('DELETE', 'sys/namespaces/ns1')).status, 204);
      assert.deepEqual(await tick(), ['']);
      assert.equal((await t.request('PUT', 'sys/seal')).status, 204);
      assert.deepEqual(await tick(), []);
    } finally {
      await t.stop();
    }
  });
});
