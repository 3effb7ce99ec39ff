import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../src/agent.js';
import type { ConfigLayer, TlsConfig } from '../src/config/config.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../src/testing.js';
import { makePki, tlsLayer } from './pki.js';

const KEY = Buffer.alloc(32, 5).toString('base64');

// Issue 28 point 1: the RPC port (Raft, ACL writes, forwarding) speaks only mutual TLS with
// certificates of the cluster's CA, and Raft only with a server certificate. The rogues here
// hold the gossip key, so only TLS keeps them out. In memory on a fake clock: the real TLS,
// RPC framing and Raft over in-memory streams (rpc-tls.test.ts runs the binary on real ports).
describe('mutual TLS on server RPC keeps rogue servers out', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  let dir: string;
  let s1: Agent;
  let s2: Agent;
  let root = '';

  const server = (name: string, bootstrapExpect: number, tls: TlsConfig | undefined, layer: ConfigLayer = {}) =>
    network.startAgent(name, {
      acl: { enabled: true },
      encrypt: KEY,
      server: { enabled: true, bootstrapExpect },
      ...(tls ? { tls } : {}),
      ...layer,
    });
  const call = (a: Agent, path: string, init?: MemoryRequest) =>
    network.settle(network.fetch(network.url(a, path), init));
  const until = async (what: string, check: () => Promise<boolean>, ms = 10_000) => {
    for (let t = 0; t < ms && !(await check()); t += 100) await network.run(100);
    assert.ok(await check(), what);
  };
  const bootstrap = async (a: Agent) => {
    await until('a leader', async () => (await call(a, '/v1/agent/health')).status === 200);
    const res = await call(a, '/v1/acl/bootstrap', { method: 'POST' });
    assert.equal(res.status, 200);
    return ((await res.json()) as { SecretID: string }).SecretID;
  };
  const gossipAddr = (a: Agent) => `${a.gossip!.local.addr}:${a.gossip!.local.port}`;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ward-agent-tls-'));
    makePki(dir);
    s1 = await server('s1', 1, tlsLayer(dir, 'server'));
    root = await bootstrap(s1);
    s2 = await server('s2', 2, tlsLayer(dir, 'server'), { join: [gossipAddr(s1)] });
    await until('s2 follows s1', async () => (await call(s2, '/v1/acl/tokens', { token: root })).status === 200);
  });
  after(async () => {
    await s1?.stop(false);
    await s2?.stop(false);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [what, tls] of [
    ['certificates of another CA', (d: string) => tlsLayer(d, 'rogue-server', 'rogue-ca')],
    ['a client certificate of our CA', (d: string) => tlsLayer(d, 'client')],
    ['no TLS at all', () => undefined],
  ] as const) {
    it(`keeps a rogue server with ${what} (and the gossip key) from changing the ACLs`, async () => {
      const rogue = await server('rogue', 1, tls(dir));
      try {
        const rogueRoot = await bootstrap(rogue);
        for (const n of ['a', 'b', 'c']) {
          const body = JSON.stringify({ Name: n, Rules: 'agent { policy = "read" }' });
          assert.equal(
            (await call(rogue, `/v1/acl/policy/${n}`, { method: 'POST', token: rogueRoot, body })).status,
            200,
          );
        }
        const joined = await call(s1, `/v1/agent/join?address=${gossipAddr(rogue)}`, { method: 'POST' });
        const { num_joined } = (await joined.json()) as { num_joined: number };
        assert.equal(num_joined, 1, 'it holds the gossip key, so it enters the member list');
        await until('s1 sees the rogue', async () => {
          const res = await call(s1, '/v1/agent/members', { token: root });
          const { Members } = (await res.json()) as { Members: Array<{ Name: string; Status: string }> };
          return Members.some((m) => m.Name === 'rogue.global' && m.Status === 'alive');
        });
        // Five Raft heartbeats (200 ms by default): each an attempt of either leader to replicate to the other.
        await network.run(1000);
        for (const s of [s1, s2]) {
          assert.equal((await call(s, '/v1/acl/tokens', { token: root })).status, 200);
          assert.equal((await call(s, '/v1/acl/tokens', { token: rogueRoot })).status, 403);
        }
        assert.equal((await call(s1, '/v1/acl/policy/a', { token: root })).status, 404);
        if (tls(dir) && what !== 'a client certificate of our CA') {
          assert.match(network.logs('s1'), /rpc: refused a connection: TLS handshake failed/);
        }
      } finally {
        await rogue.stop(false);
        await call(s1, '/v1/agent/force-leave?node=rogue.global&prune=true', { method: 'POST', token: root });
      }
    });
  }
});
