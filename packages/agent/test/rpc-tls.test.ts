import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AgentProcess, FAST_GOSSIP, statuses, waitUntil } from './harness.js';

const KEY = Buffer.alloc(32, 5).toString('base64');

/** A CA and certificates made by the openssl command line, as an operator would. */
function makePki(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) =>
    ssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${name}`,
    );
  const issue = (ca: string, name: string, dns: string) => {
    writeFileSync(
      join(dir, `${name}.ext`),
      `subjectAltName=DNS:${dns},DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n`,
    );
    ssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${dns}`,
    );
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  };
  makeCa('ca');
  makeCa('rogue-ca');
  issue('ca', 'server', 'server.global.nomad');
  issue('ca', 'client', 'client.global.nomad');
  issue('rogue-ca', 'rogue-server', 'server.global.nomad');
}

function tlsConfig(dir: string, name: string, cert: string, ca = 'ca'): string {
  const path = join(dir, `${name}.hcl`);
  writeFileSync(
    path,
    `tls {
  rpc                    = true
  verify_server_hostname = true
  ca_file                = "${join(dir, `${ca}.pem`)}"
  cert_file              = "${join(dir, `${cert}.pem`)}"
  key_file               = "${join(dir, `${cert}.key`)}"
}
`,
  );
  return `-config=${path}`;
}

const server = (name: string, ...extra: string[]) =>
  AgentProcess.start(['-server', `-node=${name}`, '-acl-enabled', `-encrypt=${KEY}`, ...FAST_GOSSIP, ...extra]);

// Issue 28 point 1: the RPC port (Raft, ACL writes, forwarding) speaks only mutual TLS with
// certificates of the cluster's CA, and Raft only with a server certificate. The rogues here
// hold the gossip key, so only TLS keeps them out.
describe('mutual TLS on server RPC between real agents', () => {
  let dir: string;
  let s1: AgentProcess;
  let s2: AgentProcess;
  let root = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ward-agent-tls-'));
    makePki(dir);
    s1 = await server('s1', '-bootstrap-expect=1', tlsConfig(dir, 's1', 'server'));
    await waitUntil('a leader', async () => (await s1.fetch('/v1/agent/health')).status === 200);
    root = (await s1.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
    s2 = await server('s2', '-bootstrap-expect=2', tlsConfig(dir, 's2', 'server'), `-join=${s1.serfAddr}`);
    await waitUntil('s2 follows s1', async () => (await s2.fetch('/v1/acl/tokens', { token: root })).status === 200);
  });
  after(async () => {
    await s1?.kill();
    await s2?.kill();
    rmSync(dir, { recursive: true, force: true });
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
      tlsConfig(dir, 'c1', 'client'),
    ]);
    try {
      assert.equal((await client.fetch('/v1/acl/token/self', { token: root })).status, 200);
    } finally {
      await client.kill();
    }
  });

  for (const [what, args] of [
    ['certificates of another CA', (d: string) => [tlsConfig(d, 'r1', 'rogue-server', 'rogue-ca')]],
    ['a client certificate of our CA', (d: string) => [tlsConfig(d, 'r2', 'client')]],
    ['no TLS at all', () => []],
  ] as const) {
    it(`keeps a rogue server with ${what} (and the gossip key) from changing the ACLs`, async () => {
      const rogue = await server('rogue', '-bootstrap-expect=1', ...args(dir));
      try {
        await waitUntil('a rogue leader', async () => (await rogue.fetch('/v1/agent/health')).status === 200);
        const rogueRoot = (await rogue.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
        for (const n of ['a', 'b', 'c']) {
          await rogue.fetch(`/v1/acl/policy/${n}`, {
            method: 'POST',
            token: rogueRoot,
            body: JSON.stringify({ Name: n, Rules: 'agent { policy = "read" }' }),
          });
        }
        const joined = await s1.json<{ num_joined: number }>(`/v1/agent/join?address=${rogue.serfAddr}`, {
          method: 'POST',
        });
        assert.equal(joined.num_joined, 1, 'it holds the gossip key, so it enters the member list');
        await waitUntil('s1 sees the rogue', async () => (await statuses(s1, root))['rogue.global'] === 'alive');
        await new Promise((r) => setTimeout(r, 2000));
        for (const s of [s1, s2]) {
          assert.equal((await s.fetch('/v1/acl/tokens', { token: root })).status, 200);
          assert.equal((await s.fetch('/v1/acl/tokens', { token: rogueRoot })).status, 403);
        }
        assert.equal((await s1.fetch('/v1/acl/policy/a', { token: root })).status, 404);
        if (args(dir).length > 0 && what !== 'a client certificate of our CA') {
          assert.match(s1.logs, /rpc: refused a connection: TLS handshake failed/);
        }
      } finally {
        await rogue.kill();
        await s1.fetch('/v1/agent/force-leave?node=rogue.global&prune=true', { method: 'POST', token: root });
      }
    });
  }
});
