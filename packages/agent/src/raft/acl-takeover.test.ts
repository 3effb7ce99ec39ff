import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../agent.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../testing.js';

// Issue 28 point 1, the attack as reported, on a cluster without gossip key or RPC TLS: join
// is open, so the rogue gets into the member list; the ACL state must still only come from
// the cluster's own elected leader. In memory on a fake clock (the real HTTP, RPC and Raft).
describe('ACL state comes only from the cluster leader (no encryption)', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  let victim: Agent;
  let root = '';

  const server = (name: string, bootstrapExpect: number) =>
    network.startAgent(name, { acl: { enabled: true }, server: { enabled: true, bootstrapExpect } });
  const call = (a: Agent, path: string, init?: MemoryRequest) =>
    network.settle(network.fetch(network.url(a, path), init));
  const json = async <T>(a: Agent, path: string, init?: MemoryRequest): Promise<T> => {
    const res = await call(a, path, init);
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return (await res.json()) as T;
  };
  /** Moves fake time on in 100 ms steps until `check` holds (for up to `ms`), then asserts it. */
  const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 10_000) => {
    for (let t = 0; t < ms && !(await check()); t += 100) await network.run(100);
    assert.ok(await check(), what);
  };
  const bootstrap = async (a: Agent) => {
    await until('a leader', async () => (await call(a, '/v1/agent/health')).status === 200);
    return (await json<{ SecretID: string }>(a, '/v1/acl/bootstrap', { method: 'POST' })).SecretID;
  };
  const join = async (a: Agent, target: Agent) => {
    const address = `${target.gossip!.local.addr}:${target.gossip!.local.port}`;
    return (await json<{ num_joined: number }>(a, `/v1/agent/join?address=${address}`, { method: 'POST' })).num_joined;
  };
  const statusOf = async (a: Agent, name: string) => {
    const body = await json<{ Members: Array<{ Name: string; Status: string }> }>(a, '/v1/agent/members', {
      token: root,
    });
    return body.Members.find((m) => m.Name === name)?.Status;
  };

  before(async () => {
    victim = await server('victim', 1);
    root = await bootstrap(victim);
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
    const rogue = await server('rogue', 1);
    try {
      const rogueRoot = await bootstrap(rogue);
      for (const n of ['a', 'b', 'c', 'd']) {
        const body = JSON.stringify({ Name: n, Rules: 'agent { policy = "write" }' });
        const res = await call(rogue, `/v1/acl/policy/${n}`, { method: 'POST', token: rogueRoot, body });
        assert.equal(res.status, 200);
      }
      assert.equal(await join(victim, rogue), 1, 'join stays open');
      await until('the rogue in the member list', async () => (await statusOf(victim, 'rogue.global')) === 'alive');
      await until('the refusal logged', () =>
        /raft: refusing server: it holds the ACL state of another cluster.*server=rogue\.global/.test(
          network.logs('victim'),
        ),
      );
      await network.run(1500);
      assert.equal((await call(victim, '/v1/acl/tokens', { token: root })).status, 200);
      assert.equal((await call(victim, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
      assert.equal((await call(victim, '/v1/acl/policy/a', { token: root })).status, 404);
      assert.equal((await call(victim, '/v1/agent/health')).status, 200, 'the victim still leads');
      assert.deepEqual(await json(victim, '/v1/status/peers'), [victim.rpcAddress]);
      // And the rogue keeps its own: neither replaces the other.
      assert.equal((await call(rogue, '/v1/acl/tokens', { token: rogueRoot })).status, 200);
      assert.match(
        network.logs('rogue'),
        /raft: refusing leader of another cluster: this server holds its own ACL state/,
      );
    } finally {
      await rogue.stop(false);
      await call(victim, '/v1/agent/force-leave?node=rogue.global&prune=true', { method: 'POST', token: root });
    }
  });

  it('takes in a fresh server: it gets the cluster state first, then becomes a voter', async () => {
    // No bootstrap_expect: it elects itself alone at start, with nothing in its state.
    const fresh = await server('fresh', 0);
    try {
      await until('fresh leads itself', async () => (await call(fresh, '/v1/agent/health')).status === 200);
      assert.equal(await join(fresh, victim), 1);
      await until('fresh holds the cluster ACLs', async () => {
        return (await call(fresh, '/v1/acl/tokens', { token: root })).status === 200;
      });
      await until('fresh is a voter', async () => {
        const peers = await json<string[]>(victim, '/v1/status/peers');
        return peers.length === 2 && peers.includes(fresh.rpcAddress);
      });
      const body = JSON.stringify({ Name: 'from-fresh', Rules: 'agent { policy = "read" }' });
      const write = await call(fresh, '/v1/acl/policy/from-fresh', { method: 'POST', token: root, body });
      assert.equal(write.status, 200, await write.text());
      assert.equal((await call(victim, '/v1/acl/policy/from-fresh', { token: root })).status, 200);
    } finally {
      await fresh.stop(false);
    }
  });
});
