import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestCluster } from './testing.js';

async function formCluster(n: number): Promise<TestCluster> {
  const c = new TestCluster();
  for (let i = 0; i < n; i++) c.add(`n${i}`);
  const [first, ...rest] = c.nodes;
  for (const node of rest) assert.equal((await node.join([first!.local])).numJoined, 1);
  await c.run(1500);
  return c;
}

describe('Memberlist', () => {
  it('spreads membership to every node from joins to a single seed', async () => {
    const c = await formCluster(5);
    for (const node of c.nodes) {
      assert.deepEqual(
        node
          .members()
          .map((m) => [m.name, m.state])
          .sort(),
        c.nodes.map((n) => [n.name, 'alive']).sort(),
      );
    }
  });

  it('counts each join address and reports the unreachable ones', async () => {
    const c = new TestCluster();
    const a = c.add('a');
    const b = c.add('b');
    const res = await b.join([a.local, a.local, { addr: '10.9.9.9', port: 1 }]);
    assert.equal(res.numJoined, 2);
    assert.equal(res.errors.length, 1);
    assert.match(res.errors[0]!, /failed to join 10\.9\.9\.9:1/);
  });

  it('marks a silent node failed after suspicion, and everyone agrees', async () => {
    const c = await formCluster(4);
    const victim = c.nodes[3]!;
    const timeBefore = c.nodes[0]!.lamportTime;
    assert.ok(timeBefore >= 3, 'three joins seen');
    c.network.isolate(victim.local);
    await c.run(3000);
    for (const node of c.nodes.slice(0, 3)) assert.equal(c.stateOf(node, victim.name), 'dead');
    // Issue 23 point 8: serf.member_time advances with membership changes.
    assert.ok(c.nodes[0]!.lamportTime > timeBefore);
  });

  it('lets a suspected node that is alive refute the suspicion with a higher incarnation', async () => {
    const c = await formCluster(3);
    const [a, b] = c.nodes;
    a!.table.suspect({ t: 'suspect', node: b!.name, inc: 0, from: a!.name });
    assert.equal(c.stateOf(a!, b!.name), 'suspect');
    await c.run(300);
    assert.equal(c.stateOf(a!, b!.name), 'alive');
    assert.ok(a!.members().find((m) => m.name === b!.name)!.incarnation > 0);
  });

  it('turns a failed member left on force-leave, and prune erases it', async () => {
    const c = await formCluster(4);
    const [a, b, , d] = c.nodes;
    c.network.isolate(d!.local);
    await c.run(3000);
    a!.forceLeave(d!.name, false);
    await c.run(300);
    assert.equal(c.stateOf(a!, d!.name), 'left');
    assert.equal(c.stateOf(b!, d!.name), 'left');
    a!.forceLeave(d!.name, true);
    await c.run(300);
    assert.equal(c.stateOf(b!, d!.name), undefined);
  });

  it('takes back a failed node once it is reachable again', async () => {
    const c = await formCluster(3);
    const [a, , z] = c.nodes;
    c.network.isolate(z!.local);
    await c.run(3000);
    assert.equal(c.stateOf(a!, z!.name), 'dead');
    c.network.heal(z!.local);
    await c.run(2000);
    assert.equal(c.stateOf(a!, z!.name), 'alive');
  });

  it('records a graceful leave as left, not failed', async () => {
    const c = await formCluster(3);
    const [a, b, z] = c.nodes;
    await z!.leave();
    await z!.shutdown();
    await c.run(2000);
    assert.equal(c.stateOf(a!, z!.name), 'left');
    assert.equal(c.stateOf(b!, z!.name), 'left');
  });

  it('lets a running node refute a force-leave, staying alive', async () => {
    const c = await formCluster(3);
    const [a, b] = c.nodes;
    a!.forceLeave(b!.name, false);
    assert.equal(a!.members().find((m) => m.name === b!.name)?.leaving, true);
    await c.run(500);
    const seen = a!.members().find((m) => m.name === b!.name)!;
    assert.equal(seen.state, 'alive');
    assert.equal(seen.leaving, false);
  });

  it('erases left members after the tombstone timeout and failed ones after the reconnect timeout', async () => {
    const c = await formCluster(4);
    const [a, , y, z] = c.nodes;
    c.network.isolate(z!.local);
    await y!.leave();
    await y!.shutdown();
    await c.run(3000);
    assert.equal(c.stateOf(a!, y!.name), 'left');
    assert.equal(c.stateOf(a!, z!.name), 'dead');
    await c.run(30_000, 100);
    assert.equal(c.stateOf(a!, y!.name), undefined);
    assert.equal(c.stateOf(a!, z!.name), 'dead');
    await c.run(30_000, 100);
    assert.equal(c.stateOf(a!, z!.name), undefined);
  });
});
