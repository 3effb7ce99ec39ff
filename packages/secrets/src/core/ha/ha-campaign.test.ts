import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, silentLogger } from '@ward/base';
import { HaCampaign, STEP_DOWN_PAUSE_MS } from './ha-campaign.js';
import { SharedLock } from './testing.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function campaign(name: string, lock: SharedLock, clock: FakeClock, events: string[]) {
  return new HaCampaign(
    { newLock: (value) => lock.newLock(value), advertise: () => ({ apiAddr: name, clusterAddr: `${name}:8201` }) },
    {
      becomeActive: async () => {
        events.push(`${name} active`);
      },
      stepDown: async () => {
        events.push(`${name} stepped down`);
      },
    },
    { clock, logger: silentLogger },
  );
}

/** Two campaigns on one lock: `a` started first and active, `b` waiting. */
async function startTwo() {
  const clock = new FakeClock();
  const lock = new SharedLock();
  const events: string[] = [];
  const a = campaign('a', lock, clock, events);
  const b = campaign('b', lock, clock, events);
  a.start();
  await settle();
  b.start();
  await settle();
  return { clock, lock, events, a, b };
}

describe('HaCampaign: sys/step-down', () => {
  it('stops serving before it releases the lock, lets another server take over, and campaigns again only after the pause', async () => {
    const { clock, lock, events, a, b } = await startTwo();
    assert.deepEqual(events, ['a active']);
    assert.equal(a.isActive, true);

    await a.stepDown();
    await settle();
    assert.equal(a.isActive, false);
    assert.equal(b.isActive, true);
    assert.deepEqual(events, ['a active', 'a stepped down', 'b active']);
    assert.equal((await b.leader())?.apiAddr, 'b');

    // b steps down too while a still pauses: nobody is active until a's pause ends.
    clock.advance(STEP_DOWN_PAUSE_MS - 1);
    await b.stepDown();
    await settle();
    assert.equal(lock.holder, undefined);
    clock.advance(1);
    await settle();
    assert.equal(a.isActive, true);
    assert.deepEqual(events.slice(3), ['b stepped down', 'a active']);

    await Promise.all([a.stop(), b.stop()]);
  });

  it('does nothing on a standby', async () => {
    const { events, a, b } = await startTwo();
    await b.stepDown();
    assert.equal(a.isActive, true);
    assert.deepEqual(events, ['a active']);
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe('HaCampaign: addresses', () => {
  it('takes no lock before the addresses are known (an auto seal unseals before the listeners bind)', async () => {
    const clock = new FakeClock();
    const lock = new SharedLock();
    let clusterAddr = '';
    let known: () => void = () => {};
    const addressesKnown = new Promise<void>((resolve) => {
      known = resolve;
    });
    const c = new HaCampaign(
      { newLock: (value) => lock.newLock(value), advertise: () => ({ apiAddr: '', clusterAddr }), addressesKnown },
      { becomeActive: async () => {}, stepDown: async () => {} },
      { clock, logger: silentLogger },
    );
    c.start();
    await settle();
    assert.equal(lock.holder, undefined);
    assert.equal(c.isActive, false);
    clusterAddr = 'unix:///run/worker-1.cluster.sock';
    known();
    await settle();
    await settle();
    assert.equal(c.isActive, true);
    assert.equal((await c.leader())?.clusterAddr, clusterAddr);
    await c.stop();
  });
});
