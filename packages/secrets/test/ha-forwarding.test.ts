import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDevTls } from '../src/server/dev-tls.js';
import { request } from '../src/server/testing.js';
import { type EtcdProcess, startEtcd } from '../src/storage/testing.js';
import { etcdHaStorage, type HaNode, healthBecomes, initAndUnseal, killAll, startHaNode } from './ha-nodes.testing.js';

/** Resolves with the status the cluster listener answered, or rejects when it refused the connection. */
function clusterGet(clusterAddr: string, client: { cert?: string; key?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${clusterAddr}/v1/sys/mounts`,
      { ...client, rejectUnauthorized: false, servername: 'ward-cluster' },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** GET `path` on `url` from the local address `from` (any 127.x is this machine); resolves with the status. */
function getFrom(from: string, url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/${path}`, { localAddress: from, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A standby forwards to the active server over mutual TLS (issue 19 points 2 and 3). */
describe('HA forwarding: a standby passes requests to the active server', () => {
  let dir: string;
  let etcd: EtcdProcess;
  const nodes: HaNode[] = [];
  let a: HaNode;
  let b: HaNode;
  let token: string;

  before(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(join(tmpdir(), 'ward-ha-forward-'));
    const common = { storage: etcdHaStorage([etcd.url]), dir };
    a = await startHaNode('a', common);
    nodes.push(a);
    const unsealed = await initAndUnseal(a);
    token = unsealed.token;
    // The standby's listener is stricter than the active's: a forwarded request must keep its limits.
    const strict = '  max_request_size = 1024\n  max_json_depth = 3\n  require_request_header = true\n';
    b = await startHaNode('b', { ...common, listenerExtra: strict });
    nodes.push(b);
    await request(b.url, 'PUT', 'sys/unseal', { body: { key: unsealed.key }, headers: { 'X-Vault-Request': 'true' } });
    await healthBecomes(b.url, 429);
  });
  after(async () => {
    await killAll(nodes);
    await etcd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const viaB = { 'X-Vault-Request': 'true' };

  it('answers writes, reads and lists through the standby as the active server would', async () => {
    const written = await request(b.url, 'POST', 'secret/data/fwd', { token, headers: viaB, body: { data: { v: 1 } } });
    assert.equal(written.status, 200);
    assert.equal(written.body.data.version, 1);
    const direct = await request(a.url, 'GET', 'secret/data/fwd', { token });
    assert.deepEqual(direct.body.data.data, { v: 1 });
    // Answered by the standby itself, not a redirect the client followed.
    const raw = await fetch(`${b.url}/v1/secret/data/fwd`, {
      headers: { ...viaB, 'X-Vault-Token': token },
      redirect: 'manual',
    });
    assert.equal(raw.status, 200);
    await raw.arrayBuffer();
    const forwarded = await request(b.url, 'GET', 'secret/data/fwd', { token, headers: viaB });
    assert.equal(forwarded.status, 200);
    assert.deepEqual({ ...forwarded.body, request_id: '' }, { ...direct.body, request_id: '' });
    const listed = await request(b.url, 'LIST', 'secret/metadata/', { token, headers: viaB });
    assert.deepEqual(listed.body.data.keys, ['fwd']);
    // Errors come back as the active server gave them.
    assert.equal((await request(b.url, 'GET', 'secret/data/fwd', { token: 'nope', headers: viaB })).status, 403);
    assert.equal((await request(b.url, 'GET', 'secret/data/missing', { token, headers: viaB })).status, 404);
  });

  it('keeps the limits of the listener the client reached (size, JSON depth, request header)', async () => {
    const big = { data: { v: 'x'.repeat(2048) } };
    assert.equal((await request(a.url, 'POST', 'secret/data/big', { token, body: big })).status, 200);
    const tooBig = await request(b.url, 'POST', 'secret/data/big', { token, headers: viaB, body: big });
    assert.equal(tooBig.status, 413);
    const deep = { data: { v: { w: { x: { y: 1 } } } } };
    assert.equal((await request(a.url, 'POST', 'secret/data/deep', { token, body: deep })).status, 200);
    const tooDeep = await request(b.url, 'POST', 'secret/data/deep', { token, headers: viaB, body: deep });
    assert.equal(tooDeep.status, 400);
    assert.match(tooDeep.body.errors[0], /depth/);
    assert.equal((await request(b.url, 'GET', 'secret/data/fwd', { token })).status, 412);
    assert.equal((await request(a.url, 'GET', 'secret/data/fwd', { token })).status, 200);
  });

  it("judges the client's address, not the standby's: a token bound to 127.0.0.2 works only from there", async () => {
    const role = { allowed_policies: ['default'], token_bound_cidrs: ['127.0.0.2/32'] };
    assert.equal((await request(a.url, 'POST', 'auth/token/roles/bound', { token, body: role })).status, 204);
    const created = await request(a.url, 'POST', 'auth/token/create/bound', { token, body: {} });
    const headers = { ...viaB, 'X-Vault-Token': created.body.auth.client_token as string };
    // The standby reaches the active server from 127.0.0.1: only the forwarded client address makes this pass.
    assert.equal(await getFrom('127.0.0.2', b.url, 'auth/token/lookup-self', headers), 200);
    assert.equal(await getFrom('127.0.0.1', b.url, 'auth/token/lookup-self', headers), 403);
  });

  it('refuses a client certificate that is not the cluster certificate, and a client without one', async () => {
    const clusterAddr = (await request(a.url, 'GET', 'sys/leader')).body.leader_cluster_address as string;
    assert.match(clusterAddr, /^https:\/\/127\.0\.0\.1:\d+$/);
    const stranger = await createDevTls(Date.now());
    try {
      const { readFile } = await import('node:fs/promises');
      const client = { cert: await readFile(stranger.certFile, 'utf8'), key: await readFile(stranger.keyFile, 'utf8') };
      await assert.rejects(clusterGet(clusterAddr, client));
      await assert.rejects(clusterGet(clusterAddr, {}));
    } finally {
      await stranger.remove();
    }
  });

  it('reports the standby in sys/ha-status (it echoes) and hands over on sys/step-down (sudo)', async () => {
    let nodes: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && nodes.length < 2; i++) {
      nodes = (await request(b.url, 'GET', 'sys/ha-status', { token, headers: viaB })).body.nodes;
      if (nodes.length < 2) await sleep(100);
    }
    const active = nodes.find((n) => n.active_node === true);
    const standby = nodes.find((n) => n.active_node === false);
    assert.equal(active?.api_address, a.url);
    assert.equal(active?.last_echo, null);
    assert.equal(standby?.api_address, b.url);
    assert.match(String(standby?.last_echo), /^\d{4}-\d\d-\d\dT/);
    assert.match(String(standby?.cluster_address), /^https:\/\/127\.0\.0\.1:\d+$/);

    assert.equal((await request(b.url, 'PUT', 'sys/step-down', { token: 'nope', headers: viaB })).status, 403);
    // Through the standby: forwarded, so the active server steps down and the standby takes over.
    assert.equal((await request(b.url, 'PUT', 'sys/step-down', { token, headers: viaB })).status, 204);
    await healthBecomes(b.url, 200);
    await healthBecomes(a.url, 429);
    assert.equal((await request(a.url, 'GET', 'sys/leader')).body.leader_address, b.url);
    const read = await request(a.url, 'GET', 'secret/data/fwd', { token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data.data, { v: 1 });
  });
});
