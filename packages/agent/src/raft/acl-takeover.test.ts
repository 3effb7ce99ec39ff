import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '../agent.js';
import { MemoryCluster } from '../memory-cluster.testing.js';

// Issue 28 point 1, the attack as reported, on a cluster without gossip key or RPC TLS: join
// is open, so the rogue gets into the member list; the ACL state must still only come from
// the cluster's own elected leader. In memory on a fake clock (the real HTTP, RPC and Raft).
describe('ACL state comes only from the cluster leader (no encryption)', () => {
  const cluster = new MemoryCluster();
  const { network } = cluster;
  let victim: Agent;
  let root = '';

  before(async () => {
    victim = await cluster.server('victim', 1);
    root = await cluster.bootstrap(victim);
  });

  after(async () => {
    await victim?.stop(false);
  });

  it('warns at start that ACLs without gossip encryption and RPC TLS leave the ACL state open', () => {
    assert.match(
      network.logs('victim'),
      /\[WARN\] agent: ACLs are on without gossip encryption \(encrypt\) and RPC TLS/,
    );
  });

  it('refuses a joining server with its own bootstrapped ACL state, whatever its index', async () => {
    const rogue = await cluster.server('rogue', 1);
    try {
      const rogueRoot = await cluster.bootstrap(rogue);
      await cluster.writePolicies(rogue, rogueRoot, ['a', 'b', 'c', 'd'], 'agent { policy = "write" }');
      assert.equal(await cluster.join(victim, rogue), 1, 'join stays open');
      await cluster.until(
        'the rogue in the member list',
        async () => (await cluster.members(victim, root)).get('rogue.global') === 'alive',
      );
      await cluster.until('the refusal logged', () =>
        /raft: refusing server: it holds the ACL state of another cluster.*server=rogue\.global/.test(
          network.logs('victim'),
        ),
      );
      await network.run(1500);
      assert.equal((await cluster.call(victim, '/v1/acl/tokens', { token: root })).status, 200);
      assert.equal((await cluster.call(victim, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
      assert.equal((await cluster.call(victim, '/v1/acl/policy/a', { token: root })).status, 404);
      assert.equal((await cluster.call(victim, '/v1/agent/health')).status, 200, 'the victim still leads');
      assert.deepEqual(await cluster.json(victim, '/v1/status/peers'), [victim.rpcAddress]);
      // And the rogue keeps its own: neither replaces the other.
      assert.equal((await cluster.call(rogue, '/v1/acl/tokens', { token: rogueRoot })).status, 200);
      assert.match(
        network.logs('rogue'),
        /raft: refusing leader of another cluster: this server holds its own ACL state/,
      );
    } finally {
      await rogue.stop(false);
      await cluster.forceLeave(victim, 'rogue.global', root);
    }
  });

  it('takes in a fresh server: it gets the cluster state first, then becomes a voter', async () => {
    // No bootstrap_expect: it elects itself alone at start, with nothing in its state.
    const fresh = await cluster.server('fresh', 0);
    try {
      await cluster.until(
        'fresh leads itself',
        async () => (await cluster.call(fresh, '/v1/agent/health')).status === 200,
      );
      assert.equal(await cluster.join(fresh, victim), 1);
      await cluster.until('fresh holds the cluster ACLs', async () => {
        return (await cluster.call(fresh, '/v1/acl/tokens', { token: root })).status === 200;
      });
      await cluster.until('fresh is a voter', async () => {
        const peers = await cluster.json<string[]>(victim, '/v1/status/peers');
        return peers.length === 2 && peers.includes(fresh.rpcAddress);
      });
      await cluster.writePolicies(fresh, root, ['from-fresh'], 'agent { policy = "read" }');
      assert.equal((await cluster.call(victim, '/v1/acl/policy/from-fresh', { token: root })).status, 200);
    } finally {
      await fresh.stop(false);
    }
  });
});
