import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from './agent.js';
import { MemoryAgentNetwork } from './testing.js';

/** Sockets and timers of the process (node's own names), to show the agents opened none. */
function realResources(): string[] {
  const kinds = new Set(['TCPServerWrap', 'TCPWRAP', 'TCPSocketWrap', 'UDPWRAP', 'UDPWrap', 'Timeout']);
  return process.getActiveResourcesInfo().filter((r) => kinds.has(r));
}

// Issue 30 point 1: the agent builds every socket through `AgentNetwork`, so whole agents run
// in memory on a fake clock: gossip on `MemoryNetwork`, RPC (its real framing) and HTTP
// (node:http) on `MemoryStreams`, Raft's timers on the `FakeClock`.
/** Three servers (ACLs on) joined through the first, on `network`. */
async function startServers(network: MemoryAgentNetwork): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (const name of ['s1', 's2', 's3']) {
    const first = agents[0]?.gossip?.local;
    const join = first ? [`${first.addr}:${first.port}`] : [];
    agents.push(await network.startAgent(name, { server: { bootstrapExpect: 3 }, acl: { enabled: true }, join }));
  }
  return agents;
}

/** Exactly one of `agents` leads and all of them follow it. */
function agreed(agents: Agent[]): boolean {
  const leaders = agents.filter((a) => a.consensus?.isLeader);
  return leaders.length === 1 && agents.every((a) => a.leader()?.id === leaders[0]?.memberName);
}

/** Runs `test` on three servers in memory once they have elected a leader; stops them all after. */
async function withServers(test: (network: MemoryAgentNetwork, agents: Agent[]) => Promise<void>): Promise<void> {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  const agents = await startServers(network);
  try {
    await network.run(10_000, () => agreed(agents));
    await test(network, agents);
  } finally {
    for (const a of agents) await a.stop(false);
  }
}

/** The leader of `agents`, and the root token of the ACL bootstrap done on it (no HTTP). */
async function bootstrapOnLeader(network: MemoryAgentNetwork, agents: Agent[]): Promise<[Agent, string]> {
  const leader = agents.find((a) => a.consensus?.isLeader)!;
  const root = (await network.settle(leader.acl.execute(undefined, { op: 'bootstrap' }))) as { SecretID: string };
  return [leader, root.SecretID];
}

/** Creates the management token `name` by PUT /v1/acl/token to `agent` as `token`, and answers it. */
async function putManagementToken(network: MemoryAgentNetwork, agent: Agent, token: string, name: string) {
  const body = JSON.stringify({ Name: name, Type: 'management' });
  const put = network.fetch(network.url(agent, '/v1/acl/token'), { method: 'PUT', token, body });
  const res = await network.settle(put);
  assert.equal(res.status, 200);
  return (await res.json()) as { AccessorID: string; SecretID: string };
}

describe('Agent in memory', () => {
  it('three servers elect a leader and replicate an ACL change, on a fake clock', async () => {
    // CPU time of this test process, not wall time: on a loaded machine (other test files
    // run beside this one) the wall clock says more about the neighbours than about this test.
    const started = process.cpuUsage();
    const before = realResources();
    await withServers(async (network, agents) => {
      assert.ok(agreed(agents), 'one leader all follow');
      assert.deepEqual(realResources(), before, 'no socket or real timer opened');

      // Written over HTTP to a follower: forwarded to the leader over (memory) RPC, committed by a majority.
      const [follower, other] = agents.filter((a) => !a.consensus?.isLeader) as [Agent, Agent];
      const boot = await network.settle(network.fetch(network.url(follower, '/v1/acl/bootstrap'), { method: 'POST' }));
      assert.equal(boot.status, 200);
      const root = ((await boot.json()) as { SecretID: string }).SecretID;
      const made = await putManagementToken(network, follower, root, 'operator');
      await network.run(500);

      for (const a of agents) assert.equal(a.aclStore.resolve(made.SecretID).isManagement, true, a.memberName);
      const read = await network.fetch(network.url(other, `/v1/acl/token/${made.AccessorID}`), { token: root });
      assert.equal(read.status, 200);
      assert.equal(((await read.json()) as { Name: string }).Name, 'operator');
      const peers = await network.fetch(network.url(other, '/v1/status/peers'));
      assert.deepEqual(await peers.json(), ['10.0.0.1:4647', '10.0.0.2:4647', '10.0.0.3:4647']);
    });
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    assert.ok(ms < 1000, `took ${ms} ms of CPU`);
  });

  it('elects a new leader when the leader crashes, and the ACL written before and after is on both survivors', async () => {
    await withServers(async (network, agents) => {
      const [old, root] = await bootstrapOnLeader(network, agents);
      await old.stop(false);
      const survivors = agents.filter((a) => a !== old);
      await network.run(20_000, () => agreed(survivors));
      assert.ok(agreed(survivors), 'the two survivors agree on a new leader');
      const term = survivors[0]!.consensus!.term;
      assert.ok(term > 1, `a new term (${term})`);

      const made = await putManagementToken(network, survivors[1]!, root, 'after');
      await network.run(500);
      for (const a of survivors) {
        assert.equal(a.aclStore.resolve(root).isManagement, true, `${a.memberName}: token from before`);
        assert.equal(a.aclStore.resolve(made.SecretID).isManagement, true, `${a.memberName}: token from after`);
      }
    });
  });

  it('partitions the leader both ways: the majority elects anew and writes; healed, the old leader follows and catches up', async () => {
    await withServers(async (network, agents) => {
      const [old, root] = await bootstrapOnLeader(network, agents);
      await network.run(500);
      network.partition(old);
      const majority = agents.filter((a) => a !== old);
      await network.run(20_000, () => agreed(majority));
      assert.ok(agreed(majority), 'the two on the majority side agree on a new leader');
      // The cut-off leader cannot commit: its write fails once its RPCs to the others do.
      const lost = old.acl.execute(root, { op: 'policy-upsert', name: 'lost', body: { Rules: '' } });
      await assert.rejects(network.settle(lost, 30_000));
      const made = await putManagementToken(network, majority[0]!, root, 'during');
      const oldHasIt = () => {
        try {
          return old.aclStore.resolve(made.SecretID).isManagement;
        } catch {
          return false;
        }
      };
      assert.equal(oldHasIt(), false, 'the cut-off side does not have it');

      network.heal(old);
      await network.run(20_000, () => agreed(agents) && oldHasIt());
      assert.ok(agreed(agents), 'one leader again, which the old one follows');
      assert.equal(old.consensus?.isLeader, false);
      assert.equal(oldHasIt(), true, 'the old leader caught up');
    });
  });
});
