import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ClusterPki, makeClusterPki, tlsConfigFlag, tlsLayer } from '../src/rpc/rpc-tls.testing.js';
import { AgentProcess, FAST_GOSSIP, waitUntil } from './harness.js';

const KEY = Buffer.alloc(32, 5).toString('base64');

const server = (name: string, ...extra: string[]) =>
  AgentProcess.start(['-server', `-node=${name}`, '-acl-enabled', `-encrypt=${KEY}`, ...FAST_GOSSIP, ...extra]);

// Issue 28 point 1: the RPC port (Raft, ACL writes, forwarding) speaks only mutual TLS with
// certificates of the cluster's CA, and Raft only with a server certificate. The rogues here
// hold the gossip key, so only TLS keeps them out. Through the binary, on real ports, the TLS
// the operator configures; the rogue servers are refused in memory (rpc-tls-memory.test.ts).
describe('mutual TLS on server RPC between real agents', () => {
  let pki: ClusterPki;
  let s1: AgentProcess;
  let s2: AgentProcess;
  let root = '';

  before(async () => {
    pki = await makeClusterPki();
    const serverTls = await tlsConfigFlag(pki.dir, 'server', tlsLayer(pki.server, pki.ca));
    s1 = await server('s1', '-bootstrap-expect=1', serverTls);
    await waitUntil('a leader', async () => (await s1.fetch('/v1/agent/health')).status === 200);
    root = (await s1.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
    s2 = await server('s2', '-bootstrap-expect=2', serverTls, `-join=${s1.serfAddr}`);
    await waitUntil('s2 follows s1', async () => (await s2.fetch('/v1/acl/tokens', { token: root })).status === 200);
  });
  after(async () => {
    await s1?.kill();
    await s2?.kill();
    await pki?.remove();
  });

  it('replicates ACL writes between servers, and serves a client, over TLS', async () => {
    const self = await s1.json<{ config: { TLSConfig: Record<string, unknown> } }>('/v1/agent/self', { token: root });
    assert.equal(self.config.TLSConfig.EnableRPC, true);
    assert.equal(self.config.TLSConfig.VerifyServerHostname, true);
    assert.doesNotMatch(s1.logs, /ACLs are on without gossip encryption/);
    const res = await s2.fetch('/v1/acl/policy/readers', {
      method: 'POST',
      token: root,
      body: JSON.stringify({ Name: 'readers', Rules: 'agent { policy = "read" }' }),
    });
    assert.equal(res.status, 200, await res.text());
    await waitUntil(
      's1 has it',
      async () => (await s1.fetch('/v1/acl/policy/readers', { token: root })).status === 200,
    );
    const client = await AgentProcess.start([
      '-client',
      '-node=c1',
      '-acl-enabled',
      `-servers=${s1.rpcAddr}`,
      ...FAST_GOSSIP,
      await tlsConfigFlag(pki.dir, 'client', tlsLayer(pki.client, pki.ca)),
    ]);
    try {
      assert.equal((await client.fetch('/v1/acl/token/self', { token: root })).status, 200);
    } finally {
      await client.kill();
    }
  });
});
