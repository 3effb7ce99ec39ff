import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

// The KV v1 → v2 upgrade through a SIGKILL: `bin/ward` on SQLite, killed once the upgrade has
// moved its first keys, upgrades the rest when it next unseals, and every key reads back as
// version 1 of a v2 secret.

const KEYS = 1500;
const UPGRADING = /Upgrading from non-versioned to versioned data/;

describe('KV upgrade killed midway', () => {
  let dir: string;
  let config: string;
  let ward: WardProcess | undefined;
  let unsealKeys: string[] = [];
  let token = '';

  const start = async () => {
    ward = startWard(['server', `-config=${config}`]);
    const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    return url as string;
  };
  const unseal = async (url: string) => {
    for (const key of unsealKeys.slice(0, 3)) await request(url, 'PUT', 'sys/unseal', { body: { key } });
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-kv-upgrade-crash-'));
    config = join(dir, 'ward.hcl');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${join(dir, 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await ward?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  const path = (i: number) => `team${i % 7}/app${i % 13}/key${i}`;

  it('loses no key when killed mid-upgrade, and resumes it on the next unseal', async () => {
    let url = await start();
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 5, secret_threshold: 3 } });
    unsealKeys = init.body.keys;
    token = init.body.root_token;
    await unseal(url);
    // secret/ on a configured server is KV version 1.
    for (let i = 0; i < KEYS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, KEYS - i) }, async (_, j) => {
          const n = i + j;
          const res = await request(url, 'POST', `secret/${path(n)}`, { token, body: { value: `v-${n}`, n } });
          assert.equal(res.status, 204);
        }),
      );
    }

    const tune = await request(url, 'POST', 'sys/mounts/secret/tune', { token, body: { options: { version: '2' } } });
    assert.equal(tune.status, 200);
    assert.match(tune.body.warnings[0], /Upgrading mount from version 1 to version 2/);
    await ward?.waitFor(/kv upgrade progress/);
    ward?.child.kill('SIGKILL');
    assert.equal(await ward?.exited, 'SIGKILL');

    url = await start();
    await unseal(url);
    // The kill came mid-upgrade: the restarted server finds its marker unfinished and carries on.
    await ward?.waitFor(/resuming kv upgrade to version 2/);
    await ward?.waitFor(/kv upgrade to version 2 finished/);

    const mounts = await request(url, 'GET', 'sys/mounts', { token });
    assert.deepEqual(mounts.body.data['secret/'].options, { version: '2' });
    for (let i = 0; i < KEYS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, KEYS - i) }, async (_, j) => {
          const n = i + j;
          const res = await request(url, 'GET', `secret/data/${path(n)}`, { token });
          assert.equal(res.status, 200, `${path(n)}: ${JSON.stringify(res.body)}`);
          assert.deepEqual(res.body.data.data, { value: `v-${n}`, n });
          assert.equal(res.body.data.metadata.version, 1);
        }),
      );
    }
    const teams = await request(url, 'LIST', 'secret/metadata/', { token });
    assert.deepEqual(
      teams.body.data.keys,
      Array.from({ length: 7 }, (_, i) => `team${i}/`),
    );
    const read = await request(url, 'GET', `secret/data/${path(1)}`, { token });
    assert.doesNotMatch(JSON.stringify(read.body), UPGRADING);
  });
});
