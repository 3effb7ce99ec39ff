import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mountKvV2AtSecret, request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

const SECRET_MARKER = 'plaintext-marker-7f3a9c';

/**
 * The embedded SQLite storage keeps every acknowledged write through a SIGKILL, and
 * nothing secret reaches the file unencrypted.
 */
describe('SQLite storage through a crash', () => {
  let dir: string;
  let config: string;
  let ward: WardProcess | undefined;

  const start = async () => {
    ward = startWard(['server', `-config=${config}`]);
    const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    return url as string;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-durability-'));
    config = join(dir, 'ward.hcl');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${join(dir, 'data', 'ward.db')}"\n}\n\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  let keys: string[] = [];
  let rootToken = '';
  const written = new Map<string, string>();

  it('acknowledges writes, is killed with SIGKILL, and reads every write back after unsealing with 3 of 5 keys', async () => {
    let url = await start();
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 5, secret_threshold: 3 } });
    keys = init.body.keys;
    rootToken = init.body.root_token;
    for (const key of keys.slice(0, 3)) await request(url, 'PUT', 'sys/unseal', { body: { key } });
    // A configured server's secret/ is KV version 1; this test is about version 2 there.
    await mountKvV2AtSecret(url, rootToken);

    // Concurrent writes, each acknowledged before the kill.
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const value = `${SECRET_MARKER}-${i}`;
        const res = await request(url, 'POST', `secret/data/app/${i}`, { token: rootToken, body: { data: { value } } });
        assert.equal(res.status, 200);
        written.set(`app/${i}`, value);
      }),
    );
    const mount = await request(url, 'POST', 'sys/mounts/kv1', { token: rootToken, body: { type: 'kv' } });
    assert.equal(mount.status, 204);
    await request(url, 'POST', 'kv1/plain', { token: rootToken, body: { password: `${SECRET_MARKER}-v1` } });

    ward?.child.kill('SIGKILL');
    assert.equal(await ward?.exited, 'SIGKILL');

    url = await start();
    assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, true);
    for (const key of [keys[4], keys[1], keys[3]]) await request(url, 'PUT', 'sys/unseal', { body: { key } });
    assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, false);
    for (const [path, value] of written) {
      const res = await request(url, 'GET', `secret/data/${path}`, { token: rootToken });
      assert.equal(res.status, 200, path);
      assert.equal(res.body.data.data.value, value);
    }
    const v1 = await request(url, 'GET', 'kv1/plain', { token: rootToken });
    assert.equal(v1.body.data.password, `${SECRET_MARKER}-v1`);
  });

  it('leaves no plaintext secret, token or key in the database files', async () => {
    ward?.child.kill('SIGTERM');
    assert.equal(await ward?.exited, 0);
    const files = ['ward.db', 'ward.db-wal'].map((f) => join(dir, 'data', f));
    const bytes = Buffer.concat(await Promise.all(files.map((f) => readFile(f).catch(() => Buffer.alloc(0)))));
    assert.ok(bytes.length > 0);
    const haystack = bytes.toString('latin1');
    assert.ok(!haystack.includes(SECRET_MARKER), 'secret values are encrypted');
    assert.ok(!haystack.includes(rootToken), 'the root token is not stored');
    for (const key of keys) {
      assert.ok(!haystack.includes(key) && !bytes.includes(Buffer.from(key, 'hex')), 'no unseal key share is stored');
    }
  });
});
