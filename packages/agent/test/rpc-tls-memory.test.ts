import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '../src/agent.js';
import type { TlsConfig } from '../src/config/config.js';
import { MemoryCluster } from '../src/memory-cluster.testing.js';
import { type ClusterPki, makeClusterPki, tlsLayer } from '../src/rpc/rpc-tls.testing.js';

const KEY = Buffer.alloc(32, 5).toString('base64');

// Issue 28 point 1: the RPC port (Raft, ACL writes, forwarding) speaks only mutual TLS with
// certificates of the cluster's CA, and Raft only with a server certificate. The rogues here
// hold the gossip key, so only TLS keeps them out. In memory on a fake clock: the real TLS,
// RPC framing and Raft over in-memory streams (rpc-tls.test.ts runs the binary on real ports).
describe('mutual TLS on server RPC keeps rogue servers out', () => {
  const cluster = new MemoryCluster();
  let pki: ClusterPki;
  let s1: Agent;
  let s2: Agent;
  let root = '';

  /** A server holding the gossip key, with `tls` (none: plain RPC). */
  const server = (name: string, bootstrapExpect: number, tls: TlsConfig | undefined, peers: string[] = []) =>
    cluster.server(name, bootstrapExpect, { encrypt: KEY, join: peers, ...(tls ? { tls } : {}) });

  before(async () => {
    pki = await makeClusterPki();
    s1 = await server('s1', 1, tlsLayer(pki.server, pki.ca));
    root = await cluster.bootstrap(s1);
    s2 = await server('s2', 2, tlsLayer(pki.server, pki.ca), [cluster.gossipAddr(s1)]);
    await cluster.until(
      's2 follows s1',
      async () => (await cluster.call(s2, '/v1/acl/tokens', { token: root })).status === 200,
    );
  });
  after(async () => {
    await s1?.stop(false);
    await s2?.stop(false);
    await pki?.remove();
  });

  for (const [what, tls] of [
    ['certificates of another CA', (p: ClusterPki) => tlsLayer(p.rogueServer, p.rogueCa)],
    ['a client certificate of our CA', (p: ClusterPki) => tlsLayer(p.client, p.ca)],
    ['no TLS at all', () => undefined],
  ] as const) {
    it(`keeps a rogue server with ${what} (and the gossip key) from changing the ACLs`, async () => {
      const rogue = await server('rogue', 1, tls(pki));
      try {
        const rogueRoot = await cluster.bootstrap(rogue);
        await cluster.writePolicies(rogue, rogueRoot, ['a', 'b', 'c'], 'agent { policy = "read" }');
        assert.equal(await cluster.join(s1, rogue), 1, 'it holds the gossip key, so it enters the member list');
        await cluster.until(
          's1 sees the rogue',
          async () => (await cluster.members(s1, root)).get('rogue.global') === 'alive',
        );
        // Five Raft heartbeats (200 ms by default): each an attempt of either leader to replicate to the other.
        await cluster.network.run(1000);
        for (const s of [s1, s2]) {
          assert.equal((await cluster.call(s, '/v1/acl/tokens', { token: root })).status, 200);
          assert.equal((await cluster.call(s, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
        }
        assert.equal((await cluster.call(s1, '/v1/acl/policy/a', { token: root })).status, 404);
        if (tls(pki) && what !== 'a client certificate of our CA') {
          assert.match(cluster.network.logs('s1'), /rpc: refused a connection: TLS handshake failed/);
        }
      } finally {
        await rogue.stop(false);
        await cluster.forceLeave(s1, 'rogue.global', root);
      }
    });
  }
});
