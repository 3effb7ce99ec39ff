import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import { InmemStorage } from '../../storage/index.js';
import { AesGcmBarrier } from '../barrier/index.js';
import { readClusterTls } from './cluster-tls.js';
import { CoreHa, type CoreHaHooks } from './core-ha.js';
import type { HaOptions } from './ha-campaign.js';
import { SharedLock } from './testing.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The hooks a core gives HA, recording what HA asked of it and in which order. */
function recordingHooks(name: string, events: string[]): CoreHaHooks {
  return {
    load: async ({ isStandby }) => {
      events.push(`${name} load${isStandby ? ' standby' : ''}`);
    },
    serve: ({ isActive }) => {
      events.push(`${name} serve${isActive ? ' active' : ''}`);
    },
    unload: async () => {
      events.push(`${name} unload`);
    },
    targets: () => {
      throw new Error(`${name}: a plain standby follows no change feed`);
    },
  };
}

/** Two servers on one store and one lock (plain standbys: no change feed), started in turn: `a` first. */
async function twoServers() {
  const physical = new InmemStorage();
  const random = new SeededRandom('core-ha');
  const clock = new FakeClock(0);
  const rootKey = random.bytes(32);
  const lock = new SharedLock();
  const events: string[] = [];
  const server = async (name: string) => {
    const barrier = new AesGcmBarrier({ physical, random, clock });
    if (!(await barrier.isInitialized())) await barrier.initialize(rootKey);
    await barrier.unseal(rootKey);
    const options: HaOptions = {
      newLock: (value) => lock.newLock(value),
      advertise: () => ({ apiAddr: `https://${name}:8200`, clusterAddr: `https://${name}:8201` }),
      // The cluster listener takes the TLS material before the first request is served.
      onActive: async (tls) => {
        const stored = await readClusterTls(barrier);
        events.push(`${name} cluster tls ${stored?.cert === tls.cert ? 'stored' : 'missing'}`);
      },
    };
    const ha = new CoreHa(options, { barrier, clock, logger: silentLogger, version: '1.0.0' });
    return { ha, barrier, hooks: recordingHooks(name, events) };
  };
  const a = await server('a');
  const b = await server('b');
  await a.ha.start(a.hooks);
  await settle();
  await b.ha.start(b.hooks);
  await settle();
  return { a, b, events };
}

describe('CoreHa: a server as HA sees it (issue 19)', () => {
  it('without HA gives the single-server answers: active, no index, nothing to wait for', async () => {
    const barrier = new AesGcmBarrier({
      physical: new InmemStorage(),
      random: new SeededRandom('x'),
      clock: new FakeClock(0),
    });
    const ha = new CoreHa(undefined, { barrier, clock: new FakeClock(0), logger: silentLogger, version: '1.0.0' });
    const events: string[] = [];
    await ha.start(recordingHooks('a', events));
    assert.deepEqual(events, [], 'the core loads itself without HA');
    assert.equal(ha.isEnabled, false);
    assert.equal(ha.runsBackgroundWork(), true);
    assert.equal(ha.isStandby(), false);
    assert.equal(ha.index(), undefined);
    assert.equal(await ha.reach(1_000, 0), true);
    assert.deepEqual(await ha.status(), { enabled: false, isSelf: false, isStandby: false });
    await ha.stepDown();
    await ha.stop();
  });

  it('the lock holder loads, has the cluster TLS stored, and only then serves; the other stays a standby that loads nothing', async () => {
    const { a, b, events } = await twoServers();

    assert.deepEqual(events, ['a load', 'a cluster tls stored', 'a serve active']);
    assert.equal(a.ha.runsBackgroundWork(), true);
    assert.deepEqual(await a.ha.status(), {
      enabled: true,
      isSelf: true,
      isStandby: false,
      isPerfStandby: false,
      leader: { apiAddr: 'https://a:8200', clusterAddr: 'https://a:8201' },
    });
    assert.equal(b.ha.isStandby(), true);
    assert.equal(b.ha.isPerformanceStandby(), false);
    assert.equal(b.ha.runsBackgroundWork(), false, 'background work runs on the active server only');
    assert.equal((await b.ha.status()).leader?.apiAddr, 'https://a:8200');
    assert.equal(await b.ha.reach(1, 0), false, 'a plain standby never serves reads');
    assert.deepEqual(
      a.ha.report().map((n) => [n.api_address, n.active_node]),
      [['https://a:8200', true]],
    );

    await Promise.all([a.ha.stop(), b.ha.stop()]);
  });

  it('step-down unloads the active server and hands over: the standby loads, finds the cluster TLS stored, and serves', async () => {
    const { a, b, events } = await twoServers();
    events.length = 0;

    await a.ha.stepDown();
    await settle();
    assert.deepEqual(events, ['a unload', 'b load', 'b cluster tls stored', 'b serve active']);
    assert.equal(a.ha.isStandby(), true);
    assert.equal(b.ha.isStandby(), false);
    assert.equal((await a.ha.status()).leader?.apiAddr, 'https://b:8200');

    await Promise.all([a.ha.stop(), b.ha.stop()]);
    assert.equal(a.ha.isStandby(), false, 'a stopped server is no standby');
  });
});
