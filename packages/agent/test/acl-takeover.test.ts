import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AgentProcess, FAST_GOSSIP, statuses, waitUntil } from './harness.js';

const server = (name: string, ...extra: string[]) =>
  AgentProcess.start(['-server', `-node=${name}`, '-acl-enabled', ...FAST_GOSSIP, ...extra]);

async function bootstrap(a: AgentProcess): Promise<string> {
  await waitUntil('a leader', async () => (await a.fetch('/v1/agent/health')).status === 200);
  return (await a.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
}

async function join(a: AgentProcess, target: AgentProcess): Promise<number> {
  return (await a.json<{ num_joined: number }>(`/v1/agent/join?address=${target.serfAddr}`, { method: 'POST' }))
    .num_joined;
}

// Issue 28 point 1, the attack as reported, on a cluster without gossip key or RPC TLS: join
// is open, so the rogue gets into the member list; the ACL state must still only come from
// the cluster's own elected leader.
describe('ACL state comes only from the cluster leader (real agents, no encryption)', () => {
  let victim: AgentProcess;
  let root = '';

  before(async () => {
    victim = await server('victim', '-bootstrap-expect=1');
    root = await bootstrap(victim);
  });

  it('warns at start that ACLs without gossip encryption and RPC TLS leave the ACL state open', () => {
    assert.match(victim.logs, /\[WARN\] agent: ACLs are on without gossip encryption \(encrypt\) and RPC TLS/);
  });
  after(async () => {
    await victim?.kill();
  });

  it('refuses a joining server with its own bootstrapped ACL state, whatever its index', async () => {
    const rogue = await server('rogue', '-bootstrap-expect=1');
    try {
      const rogueRoot = await bootstrap(rogue);
      for (const n of ['a', 'b', 'c', 'd']) {
        const res = await rogue.fetch(`/v1/acl/policy/${n}`, {
          method: 'POST',
          token: rogueRoot,
          body: JSON.stringify({ Name: n, Rules: 'agent { policy = "write" }' }),
        });
        assert.equal(res.status, 200);
      }
      assert.equal(await join(victim, rogue), 1, 'join stays open');
      await waitUntil(
        'the rogue in the member list',
        async () => (await statuses(victim, root))['rogue.global'] === 'alive',
      );
      await waitUntil('the refusal logged', () =>
        /raft: refusing server: it holds the ACL state of another cluster.*server=rogue\.global/.test(victim.logs),
      );
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await victim.fetch('/v1/acl/tokens', { token: root })).status, 200);
      assert.equal((await victim.fetch('/v1/acl/tokens', { token: rogueRoot })).status, 403);
      assert.equal((await victim.fetch('/v1/acl/policy/a', { token: root })).status, 404);
      assert.equal((await victim.fetch('/v1/agent/health')).status, 200, 'the victim still leads');
      assert.deepEqual(await victim.json('/v1/status/peers'), [victim.rpcAddr]);
      // And the rogue keeps its own: neither replaces the other.
      assert.equal((await rogue.fetch('/v1/acl/tokens', { token: rogueRoot })).status, 200);
      assert.match(rogue.logs, /raft: refusing leader of another cluster: this server holds its own ACL state/);
    } finally {
      await rogue.kill();
      await victim.fetch('/v1/agent/force-leave?node=rogue.global&prune=true', { method: 'POST', token: root });
    }
  });

  it('takes in a fresh server: it gets the cluster state first, then becomes a voter', async () => {
    // No bootstrap_expect: it elects itself alone at start, with nothing in its state.
    const fresh = await server('fresh');
    try {
      await waitUntil('fresh leads itself', async () => (await fresh.fetch('/v1/agent/health')).status === 200);
      assert.equal(await join(fresh, victim), 1);
      await waitUntil('fresh holds the cluster ACLs', async () => {
        return (await fresh.fetch('/v1/acl/tokens', { token: root })).status === 200;
      });
      await waitUntil('fresh is a voter', async () => {
        const peers = await victim.json<string[]>('/v1/status/peers');
        return peers.length === 2 && peers.includes(fresh.rpcAddr);
      });
      // A two-voter cluster needs both: while the new process finishes starting (the HCL
      // parser's wasm compiles in its first second), a write may meet an election; retry it.
      await waitUntil('a write through fresh', async () => {
        const write = await fresh.fetch('/v1/acl/policy/from-fresh', {
          method: 'POST',
          token: root,
          body: JSON.stringify({ Name: 'from-fresh', Rules: 'agent { policy = "read" }' }),
        });
        return write.status === 200;
      });
      assert.equal((await victim.fetch('/v1/acl/policy/from-fresh', { token: root })).status, 200);
    } finally {
      await fresh.kill();
    }
  });
});
