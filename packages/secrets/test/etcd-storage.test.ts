import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { mountKvV2AtSecret, request } from '../src/server/testing.js';
import { type EtcdProcess, startEtcd } from '../src/storage/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

const SECRET_MARKER = 'etcd-plaintext-marker-52c1';

/** `bin/ward server` on a real etcd: initialised, unsealed, and nothing acknowledged is lost across restarts. */
describe('storage "etcd" through restarts and a crash (issue 19)', () => {
  let dir: string;
  let config: string;
  let etcd: EtcdProcess;
  let ward: WardProcess | undefined;
  let url = '';

  const start = async () => {
    ward = startWard(['server', `-config=${config}`]);
    const [, listening] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    url = listening as string;
    return url;
  };
  const unseal = async (keys: string[]) => {
    for (const key of keys) await request(url, 'PUT', 'sys/unseal', { body: { key } });
    assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, false);
  };

  before(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(join(tmpdir(), 'ward-etcd-server-'));
    config = join(dir, 'ward.hcl');
    const storage = `storage "etcd" {\n  address = "${etcd.url}"\n  path = "ward-test/"\n}\n`;
    await writeFile(config, `${storage}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`);
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await ward?.exited;
    await etcd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  let keys: string[] = [];
  let rootToken = '';
  const written = new Map<string, string>();

  it('initialises, unseals, and keeps writes through a clean restart', async () => {
    await start();
    assert.equal((await request(url, 'GET', 'sys/health')).status, 501);
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 3, secret_threshold: 2 } });
    keys = init.body.keys;
    rootToken = init.body.root_token;
    await unseal(keys.slice(0, 2));
    // A configured server's secret/ is KV version 1; this test is about version 2 there.
    await mountKvV2AtSecret(url, rootToken);
    const res = await request(url, 'POST', 'secret/data/before-restart', {
      token: rootToken,
      body: { data: { value: `${SECRET_MARKER}-clean` } },
    });
    assert.equal(res.status, 200);
    written.set('before-restart', `${SECRET_MARKER}-clean`);

    ward?.child.kill('SIGTERM');
    assert.equal(await ward?.exited, 0);
    await start();
    assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, true);
    await unseal([keys[2] as string, keys[0] as string]);
    const read = await request(url, 'GET', 'secret/data/before-restart', { token: rootToken });
    assert.equal(read.body.data.data.value, `${SECRET_MARKER}-clean`);
  });

  it('loses no acknowledged write to a SIGKILL of the Ward process', async () => {
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const value = `${SECRET_MARKER}-${i}`;
        const res = await request(url, 'POST', `secret/data/app/${i}`, { token: rootToken, body: { data: { value } } });
        assert.equal(res.status, 200);
        written.set(`app/${i}`, value);
      }),
    );
    ward?.child.kill('SIGKILL');
    assert.equal(await ward?.exited, 'SIGKILL');

    await start();
    await unseal(keys.slice(1, 3));
    for (const [path, value] of written) {
      const res = await request(url, 'GET', `secret/data/${path}`, { token: rootToken });
      assert.equal(res.status, 200, path);
      assert.equal(res.body.data.data.value, value);
    }
    const list = await request(url, 'LIST', 'secret/metadata/app', { token: rootToken });
    assert.equal(list.body.data.keys.length, 30);
  });

  it('stores only ciphertext in etcd, under the configured prefix', async () => {
    const client = new Etcd3({ hosts: etcd.url });
    try {
      const all = await client.getAll().buffers();
      const keysStored = Object.keys(all);
      assert.ok(keysStored.length > 0);
      assert.ok(
        keysStored.every((k) => k.startsWith('ward-test/')),
        keysStored.join(','),
      );
      const haystack = Buffer.concat(Object.values(all)).toString('latin1');
      assert.ok(!haystack.includes(SECRET_MARKER), 'secret values are encrypted');
      assert.ok(!haystack.includes(rootToken), 'the root token is not stored');
    } finally {
      client.close();
    }
  });
});
