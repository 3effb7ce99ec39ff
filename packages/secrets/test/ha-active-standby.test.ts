import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mountKvV2AtSecret, request } from '../src/server/testing.js';
import { healthBecomes, SHARED_HA_STORAGES, type SharedHaStorage, startHaNode } from './ha-nodes.testing.js';
import type { WardProcess } from './ward-process.js';

/**
 * Two `bin/ward server` processes on one shared storage with `ha_enabled` (etcd, issue 19 point 2;
 * PostgreSQL, issue 29): one active, one standby, failover on SIGKILL.
 */
for (const shared of SHARED_HA_STORAGES)
  describe(`HA on storage "${shared.name}": active and standby`, () => {
    let dir: string;
    let storage: SharedHaStorage;
    const wards: WardProcess[] = [];

    /** Only `a` has a cluster channel: `b` cannot forward, so it redirects. */
    const start = async (name: string) => {
      const node = await startHaNode(name, { storage: storage.storage, dir, cluster: name === 'a' });
      wards.push(node.ward);
      return node;
    };

    before(async () => {
      storage = await shared.start();
      dir = await mkdtemp(join(tmpdir(), 'ward-ha-'));
    });
    after(async () => {
      for (const w of wards) w.child.kill('SIGKILL');
      await Promise.all(wards.map((w) => w.exited));
      await storage?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('keeps the second unsealed server standby (429, leader = the active) and fails over on SIGKILL, losing nothing', async () => {
      const a = await start('a');
      const init = await request(a.url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
      const [key] = init.body.keys as string[];
      const token = init.body.root_token as string;
      await request(a.url, 'PUT', 'sys/unseal', { body: { key } });
      await healthBecomes(a.url, 200);
      // A configured server's secret/ is KV version 1; this test is about version 2 there.
      await mountKvV2AtSecret(a.url, token);
      const written = await request(a.url, 'POST', 'secret/data/ha', { token, body: { data: { v: 'acknowledged' } } });
      assert.equal(written.status, 200);

      const b = await start('b');
      assert.equal((await request(b.url, 'GET', 'sys/health')).status, 503);
      await request(b.url, 'PUT', 'sys/unseal', { body: { key } });
      const health = await request(b.url, 'GET', 'sys/health');
      assert.equal(health.status, 429);
      assert.equal(health.body.standby, true);
      assert.equal(health.body.sealed, false);
      assert.equal(health.body.cluster_id, (await request(a.url, 'GET', 'sys/health')).body.cluster_id);
      assert.match(health.body.cluster_name, /^vault-cluster-/);
      assert.equal((await request(b.url, 'GET', 'sys/health?standbyok=true')).status, 200);
      assert.equal((await request(b.url, 'GET', 'sys/seal-status')).body.sealed, false);
      const leader = (await request(b.url, 'GET', 'sys/leader')).body;
      assert.equal(leader.ha_enabled, true);
      assert.equal(leader.is_self, false);
      assert.equal(leader.leader_address, a.url);
      assert.match(leader.leader_cluster_address, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.equal((await request(a.url, 'GET', 'sys/leader')).body.is_self, true);
      // The standby serves nothing itself and, without a cluster channel, sends the client to the active server.
      const redirect = await fetch(`${b.url}/v1/secret/data/ha`, {
        headers: { 'X-Vault-Token': token },
        redirect: 'manual',
      });
      assert.equal(redirect.status, 307);
      assert.equal(redirect.headers.get('location'), `${a.url}/v1/secret/data/ha`);

      a.ward.child.kill('SIGKILL');
      assert.equal(await a.ward.exited, 'SIGKILL');
      await healthBecomes(b.url, 200);
      assert.equal((await request(b.url, 'GET', 'sys/leader')).body.is_self, true);
      const read = await request(b.url, 'GET', 'secret/data/ha', { token });
      assert.equal(read.status, 200);
      assert.equal(read.body.data.data.v, 'acknowledged');

      // The killed server comes back and, unsealed, waits as standby behind the new active one.
      const again = await start('a');
      await request(again.url, 'PUT', 'sys/unseal', { body: { key } });
      assert.equal((await request(again.url, 'GET', 'sys/health')).status, 429);
      assert.equal((await request(again.url, 'GET', 'sys/leader')).body.leader_address, b.url);
    });
  });
