import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { Agent } from './agent.js';
import { defaultConfig, mergeConfig } from './config/config.js';
import { LogHub } from './monitor/log-hub.js';
import { MemoryAgentNetwork } from './testing.js';

/** Advances fake time in small steps, letting the network's microtasks and replies run between. */
async function run(clock: FakeClock, ms: number, until?: () => boolean): Promise<void> {
  for (let t = 0; t < ms && !until?.(); t += 10) {
    clock.advance(10);
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  }
}

async function settle<T>(clock: FakeClock, p: Promise<T>): Promise<T> {
  let done = false;
  void p
    .finally(() => {
      done = true;
    })
    .catch(() => {});
  await run(clock, 10_000, () => done);
  return p;
}

// Issue 30 point 1: the agent builds its sockets through `AgentNetwork`, so whole agents run
// in memory on a fake clock.
describe('Agent in memory', () => {
  it('three servers elect a leader and replicate an ACL change, on a fake clock', async () => {
    const started = Date.now();
    const clock = new FakeClock(0);
    const network = new MemoryAgentNetwork(clock);
    const agents: Agent[] = [];
    for (const [i, name] of ['s1', 's2', 's3'].entries()) {
      const first = agents[0]?.gossip?.local;
      const config = mergeConfig(defaultConfig(name), {
        bindAddr: `10.0.0.${i + 1}`,
        ports: { http: 0, rpc: 0, serf: 0 },
        server: { enabled: true, bootstrapExpect: 3 },
        acl: { enabled: true },
        gossipProfile: 'lan',
        join: first ? [`${first.addr}:${first.port}`] : [],
      });
      const hub = new LogHub();
      agents.push(
        await Agent.start(config, { clock, random: new SeededRandom(name), hub, argv: [], env: {} }, network),
      );
    }
    try {
      const agreed = () => {
        const leaders = agents.filter((a) => a.consensus?.isLeader);
        return leaders.length === 1 && agents.every((a) => a.leader()?.id === leaders[0]?.memberName);
      };
      await run(clock, 10_000, agreed);
      assert.ok(agreed(), 'one leader all follow');

      // Written through a follower: forwarded to the leader over (memory) RPC, committed by a majority.
      const follower = agents.find((a) => !a.consensus?.isLeader)!;
      const token = (await settle(clock, follower.acl.execute(undefined, { op: 'bootstrap' }))) as { SecretID: string };
      await run(clock, 500);
      for (const a of agents) assert.equal(a.aclStore.resolve(token.SecretID).isManagement, true, a.memberName);
      assert.deepEqual(
        agents[0]!
          .consensus!.voters()
          .map((p) => p.id)
          .sort(),
        ['s1.global', 's2.global', 's3.global'],
      );
    } finally {
      for (const a of agents) await a.stop(false);
    }
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });
});
