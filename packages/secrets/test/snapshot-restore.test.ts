import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

interface Server {
  url: string;
  token: string;
  ward: WardProcess;
}

async function startDev(): Promise<Server> {
  const ward = startWard(['server', '-dev', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0']);
  const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
  return { url: url as string, token: 'root', ward };
}

async function startSqlite(dir: string): Promise<Server> {
  const config = join(dir, 'ward.hcl');
  await writeFile(
    config,
    `storage "sqlite" {\n  path = "${join(dir, 'data', 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
  );
  const ward = startWard(['server', `-config=${config}`]);
  const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
  const init = await request(url as string, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
  await request(url as string, 'PUT', 'sys/unseal', { body: { key: init.body.keys[0] } });
  return { url: url as string, token: init.body.root_token, ward };
}

async function save(s: Server): Promise<Buffer> {
  const res = await fetch(`${s.url}/v1/sys/storage/raft/snapshot`, { headers: { 'X-Vault-Token': s.token } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/gzip');
  return Buffer.from(await res.arrayBuffer());
}

async function restore(s: Server, snapshot: Uint8Array, path = 'snapshot', token = s.token) {
  const res = await fetch(`${s.url}/v1/sys/storage/raft/${path}`, {
    method: 'POST',
    headers: { 'X-Vault-Token': token },
    body: new Blob([new Uint8Array(snapshot)]),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const readValue = async (s: Server, name: string) => {
  const res = await request(s.url, 'GET', `secret/data/${name}`, { token: s.token });
  return res.status === 200 ? res.body.data.data.value : res.status;
};
const writeValue = (s: Server, name: string, value: string) =>
  request(s.url, 'POST', `secret/data/${name}`, { token: s.token, body: { data: { value } } });

for (const kind of ['sqlite', 'inmem'] as const) {
  describe(`snapshot save and restore (${kind}, over HTTP against bin/ward)`, () => {
    let dir: string;
    let s: Server;
    let other: Server | undefined;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ward-snapshot-test-'));
      s = kind === 'sqlite' ? await startSqlite(dir) : await startDev();
    });
    after(async () => {
      s.ward.child.kill('SIGKILL');
      other?.ward.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });

    let snapshot: Buffer;
    it('restores the store as saved: later writes, policies and tokens are gone, earlier values back', async () => {
      await writeValue(s, 'a', 'before');
      await request(s.url, 'PUT', 'sys/policies/acl/early', { token: s.token, body: { policy: 'path "x" {}' } });
      snapshot = await save(s);

      await writeValue(s, 'a', 'after');
      await writeValue(s, 'b', 'after');
      await request(s.url, 'PUT', 'sys/policies/acl/late', { token: s.token, body: { policy: 'path "y" {}' } });
      await request(s.url, 'DELETE', 'sys/policies/acl/early', { token: s.token });
      const late = await request(s.url, 'POST', 'auth/token/create', {
        token: s.token,
        body: { policies: ['default'] },
      });
      const lateToken: string = late.body.auth.client_token;
      await request(s.url, 'POST', 'sys/mounts/later', { token: s.token, body: { type: 'kv' } });

      assert.equal((await restore(s, snapshot)).status, 204);
      assert.equal(await readValue(s, 'a'), 'before');
      assert.equal(await readValue(s, 'b'), 404);
      assert.equal((await request(s.url, 'GET', 'sys/policies/acl/early', { token: s.token })).status, 200);
      assert.equal((await request(s.url, 'GET', 'sys/policies/acl/late', { token: s.token })).status, 404);
      assert.equal((await request(s.url, 'GET', 'auth/token/lookup-self', { token: lateToken })).status, 403);
      const mounts = await request(s.url, 'GET', 'sys/mounts', { token: s.token });
      assert.equal(mounts.body.data['later/'], undefined);
      assert.ok(mounts.body.data['secret/']);
      await writeValue(s, 'c', 'written after the restore');
      assert.equal(await readValue(s, 'c'), 'written after the restore');
    });

    it('refuses a corrupted or truncated snapshot with 400 and leaves the store unchanged', async () => {
      const corrupted = Buffer.from(snapshot);
      const middle = Math.floor(corrupted.length / 2);
      corrupted.writeUInt8(corrupted.readUInt8(middle) ^ 0xff, middle);
      // Cut at many points: a cut inside a member left the unpacker still writing while the refusal
      // cleaned up, which once turned the 400 into a 500 (ENOTEMPTY from the temporary directory).
      const truncated = Array.from({ length: 24 }, (_, i) =>
        snapshot.subarray(0, Math.floor((snapshot.length * (i + 1)) / 25)),
      );
      for (const bad of [corrupted, ...truncated, Buffer.from('not a snapshot')]) {
        const res = await restore(s, bad);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(await readValue(s, 'c'), 'written after the restore');
      }
    });

    it('needs sudo on both paths', async () => {
      await request(s.url, 'PUT', 'sys/policies/acl/snap', {
        token: s.token,
        body: { policy: 'path "sys/storage/raft/*" { capabilities = ["read", "update"] }' },
      });
      const created = await request(s.url, 'POST', 'auth/token/create', {
        token: s.token,
        body: { policies: ['snap'] },
      });
      const token: string = created.body.auth.client_token;
      const res = await fetch(`${s.url}/v1/sys/storage/raft/snapshot`, { headers: { 'X-Vault-Token': token } });
      assert.equal(res.status, 403);
      assert.equal((await restore(s, snapshot, 'snapshot', token)).status, 403);
      assert.equal((await restore(s, snapshot, 'snapshot-force', token)).status, 403);
      assert.equal(await readValue(s, 'c'), 'written after the restore');
    });

    it('refuses another server’s snapshot unless forced; forced, the server seals for that snapshot’s keys', async () => {
      other = await startDev();
      await writeValue(other, 'a', 'from the other server');
      const foreign = await save(other);
      const refused = await restore(s, foreign);
      assert.equal(refused.status, 400);
      assert.match(refused.body.errors[0], /different set of unseal keys/);
      assert.equal(await readValue(s, 'c'), 'written after the restore');

      const forced = await restore(s, foreign, 'snapshot-force');
      assert.ok(forced.status < 300, JSON.stringify(forced));
      const status = await request(s.url, 'GET', 'sys/seal-status');
      assert.equal(status.body.sealed, true);
    });
  });
}
