import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '../agent.js';
import { MemoryCluster } from '../memory-cluster.testing.js';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');

// Issue 28 point 1: join stays open (as the spec says), and is harmless: a node without the
// gossip key is never heard, so it cannot enter the pool, let alone hand it its ACL state.
// In memory on a fake clock (the agent's encrypted gossip over MemoryNetwork); the key
// rotation through the CLI runs the binary (test/gossip-encryption.test.ts).
describe('gossip encryption', () => {
  const cluster = new MemoryCluster();
  let s1: Agent;
  let s2: Agent;
  let root = '';

  before(async () => {
    s1 = await cluster.server('s1', 1, { encrypt: K1 });
    root = await cluster.bootstrap(s1);
    s2 = await cluster.server('s2', 2, { encrypt: K1 });
    assert.equal(await cluster.join(s2, s1), 1);
    await cluster.until('s1 sees s2', async () => (await cluster.members(s1, root)).get('s2.global') === 'alive');
  });
  after(async () => {
    await s1?.stop(false);
    await s2?.stop(false);
  });

  it('reports encrypted gossip in stats.serf', async () => {
    type Self = { stats: { serf: { encrypted: string } }; config: { Server: { EncryptKey: string } } };
    const self = await cluster.json<Self>(s1, '/v1/agent/self', { token: root });
    assert.equal(self.stats.serf.encrypted, 'true');
    assert.equal(self.config.Server.EncryptKey, '<redacted>');
  });

  for (const [what, layer] of [
    ['no key', {}],
    ['another key', { encrypt: K2 }],
  ] as const) {
    it(`keeps a rogue cluster with ${what} out: no join either way, and the ACLs stay ours`, async () => {
      const rogue = await cluster.server('rogue', 1, layer);
      try {
        const rogueRoot = await cluster.bootstrap(rogue);
        // A few writes, so the rogue's ACL state is "newer" than ours by index.
        await cluster.writePolicies(rogue, rogueRoot, ['a', 'b', 'c'], 'agent { policy = "read" }');
        assert.equal(await cluster.join(s1, rogue), 0, 'the victim asked to join the rogue');
        assert.equal(await cluster.join(rogue, s1), 0, 'the rogue asked to join the victim');
        await cluster.network.run(1500);
        assert.deepEqual([...(await cluster.members(s1, root)).keys()].sort(), ['s1.global', 's2.global']);
        assert.equal((await cluster.call(s1, '/v1/acl/tokens', { token: root })).status, 200);
        assert.equal((await cluster.call(s1, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
        assert.equal((await cluster.call(s2, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
      } finally {
        await rogue.stop(false);
      }
    });
  }
});
