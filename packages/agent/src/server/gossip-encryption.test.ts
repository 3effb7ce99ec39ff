import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../agent.js';
import type { ConfigLayer } from '../config/config.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../testing.js';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');

// Issue 28 point 1: join stays open (as the spec says), and is harmless: a node without the
// gossip key is never heard, so it cannot enter the pool, let alone hand it its ACL state.
// In memory on a fake clock (the agent's encrypted gossip over MemoryNetwork); the key
// rotation through the CLI runs the binary (test/gossip-encryption.test.ts).
describe('gossip encryption', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  let s1: Agent;
  let s2: Agent;
  let root = '';

  const server = (name: string, layer: ConfigLayer) =>
    network.startAgent(name, { acl: { enabled: true }, server: { enabled: true, bootstrapExpect: 1 }, ...layer });
  const call = (a: Agent, path: string, init?: MemoryRequest) =>
    network.settle(network.fetch(network.url(a, path), init));
  const json = async <T>(a: Agent, path: string, init?: MemoryRequest): Promise<T> => {
    const res = await call(a, path, init);
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return (await res.json()) as T;
  };
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let t = 0; t < 10_000 && !(await check()); t += 100) await network.run(100);
    assert.ok(await check(), what);
  };
  const bootstrap = async (a: Agent) => {
    await until('a leader', async () => (await call(a, '/v1/agent/health')).status === 200);
    return (await json<{ SecretID: string }>(a, '/v1/acl/bootstrap', { method: 'POST' })).SecretID;
  };
  const joinVia = async (a: Agent, target: Agent) => {
    const address = `${target.gossip!.local.addr}:${target.gossip!.local.port}`;
    return (await json<{ num_joined: number }>(a, `/v1/agent/join?address=${address}`, { method: 'POST' })).num_joined;
  };
  const members = async (a: Agent) => {
    const body = await json<{ Members: Array<{ Name: string; Status: string }> }>(a, '/v1/agent/members', {
      token: root,
    });
    return Object.fromEntries(body.Members.map((m) => [m.Name, m.Status]));
  };

  before(async () => {
    s1 = await server('s1', { encrypt: K1 });
    root = await bootstrap(s1);
    s2 = await server('s2', { encrypt: K1, server: { enabled: true, bootstrapExpect: 2 } });
    assert.equal(await joinVia(s2, s1), 1);
    await until('s1 sees s2', async () => (await members(s1))['s2.global'] === 'alive');
  });
  after(async () => {
    await s1?.stop(false);
    await s2?.stop(false);
  });

  it('reports encrypted gossip in stats.serf', async () => {
    type Self = { stats: { serf: { encrypted: string } }; config: { Server: { EncryptKey: string } } };
    const self = await json<Self>(s1, '/v1/agent/self', { token: root });
    assert.equal(self.stats.serf.encrypted, 'true');
    assert.equal(self.config.Server.EncryptKey, '<redacted>');
  });

  for (const [what, layer] of [
    ['no key', {}],
    ['another key', { encrypt: K2 }],
  ] as const) {
    it(`keeps a rogue cluster with ${what} out: no join either way, and the ACLs stay ours`, async () => {
      const rogue = await server('rogue', layer);
      try {
        const rogueRoot = await bootstrap(rogue);
        // A few writes, so the rogue's ACL state is "newer" than ours by index.
        for (const n of ['a', 'b', 'c']) {
          const body = JSON.stringify({ Name: n, Rules: 'agent { policy = "read" }' });
          assert.equal(
            (await call(rogue, `/v1/acl/policy/${n}`, { method: 'POST', token: rogueRoot, body })).status,
            200,
          );
        }
        assert.equal(await joinVia(s1, rogue), 0, 'the victim asked to join the rogue');
        assert.equal(await joinVia(rogue, s1), 0, 'the rogue asked to join the victim');
        await network.run(1500);
        assert.deepEqual(Object.keys(await members(s1)).sort(), ['s1.global', 's2.global']);
        assert.equal((await call(s1, '/v1/acl/tokens', { token: root })).status, 200);
        assert.equal((await call(s1, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
        assert.equal((await call(s2, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
      } finally {
        await rogue.stop(false);
      }
    });
  }
});
