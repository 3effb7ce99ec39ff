import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mountKvV2AtSecret, request, type TestResponse } from '../src/server/testing.js';
import { type HaNode, SHARED_HA_STORAGES, type SharedHaStorage, startHaNode } from './ha-nodes.testing.js';
import type { WardProcess } from './ward-process.js';

/**
 * Issue 19 points 5-7: two `bin/ward server` processes on one shared storage, the second a
 * performance standby that serves reads itself from caches the change feed (an etcd watch;
 * PostgreSQL's LISTEN/NOTIFY, issue 29) keeps right.
 */
for (const shared of SHARED_HA_STORAGES)
  describe(`HA on ${shared.name}: a performance standby (issue 19 points 5, 6, 7; issue 29)`, () => {
    let dir: string;
    let storage: SharedHaStorage;
    const wards: WardProcess[] = [];
    let active: HaNode;
    let standby: HaNode;
    let root: string;

    // A long lock TTL: stopping the active server (SIGSTOP) must not hand the lock over mid-test.
    const start = async (name: string) => {
      const node = await startHaNode(name, {
        storage: storage.storage,
        dir,
        performanceStandby: true,
        lockTtl: '15s',
      });
      wards.push(node.ward);
      return node;
    };
    /** Polls until `check` holds (a bound for the watch to deliver, not a timing assertion). */
    const eventually = async (what: string, check: () => Promise<boolean>) => {
      for (let i = 0; i < 100; i++) {
        if (await check()) return;
        await sleep(50);
      }
      assert.fail(`never: ${what}`);
    };
    /** A request to the standby naming the revision `written` reached (read-your-writes). */
    const afterWrite = (written: TestResponse, token = root) => ({
      token,
      headers: { 'X-Vault-Index': written.headers.get('x-vault-index') ?? '' },
    });
    const onActive = (method: string, path: string, body?: unknown, token = root) =>
      request(active.url, method, path, { token, body });
    /** A read of the standby's own: a redirect to the active server is not followed, and fails the test. */
    const onStandby = async (
      path: string,
      o: { token?: string; headers?: Record<string, string> } = {},
    ): Promise<TestResponse> => {
      const res = await fetch(`${standby.url}/v1/${path}`, {
        headers: { ...o.headers, ...(o.token ? { 'X-Vault-Token': o.token } : {}) },
        redirect: 'manual',
      });
      const text = await res.text();
      assert.notEqual(
        res.status,
        307,
        `the standby handed GET ${path} to the active server: ${standby.ward.output().slice(-3000)}`,
      );
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };

    before(async () => {
      storage = await shared.start();
      dir = await mkdtemp(join(tmpdir(), 'ward-perf-standby-'));
      active = await start('a');
      const init = await request(active.url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
      const [key] = init.body.keys as string[];
      root = init.body.root_token as string;
      await request(active.url, 'PUT', 'sys/unseal', { body: { key } });
      await eventually(
        'the first server is active',
        async () => (await request(active.url, 'GET', 'sys/health')).status === 200,
      );
      // A configured server's secret/ is KV version 1; this test is about version 2 there.
      await mountKvV2AtSecret(active.url, root);
      standby = await start('b');
      await request(standby.url, 'PUT', 'sys/unseal', { body: { key } });
    });
    after(async () => {
      for (const w of wards) {
        w.child.kill('SIGCONT');
        w.child.kill('SIGKILL');
      }
      await Promise.all(wards.map((w) => w.exited));
      await storage?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('answers sys/health 473 (200 with perfstandbyok) and says so in sys/leader', async () => {
      const health = await request(standby.url, 'GET', 'sys/health');
      assert.equal(health.status, 473);
      assert.equal(health.body.standby, true);
      assert.equal(health.body.performance_standby, true);
      assert.equal((await request(standby.url, 'GET', 'sys/health?perfstandbyok=true')).status, 200);
      assert.equal((await request(standby.url, 'GET', 'sys/health?performancestandbycode=299')).status, 299);
      const leader = (await request(standby.url, 'GET', 'sys/leader')).body;
      assert.equal(leader.performance_standby, true);
      assert.equal(leader.is_self, false);
      assert.equal(leader.leader_address, active.url);
      assert.equal((await request(active.url, 'GET', 'sys/health')).body.performance_standby, false);
    });

    it('serves a read at the index a write named, and sends writes to the active server', async () => {
      const written = await onActive('POST', 'secret/data/ryw', { data: { v: 'one' } });
      const index = Number(written.headers.get('x-vault-index'));
      assert.ok(index > 0);
      assert.equal(written.headers.get('x-service-index'), String(index));
      const read = await onStandby('secret/data/ryw', afterWrite(written));
      assert.equal(read.status, 200);
      assert.equal(read.body.data.data.v, 'one');
      assert.ok(Number(read.headers.get('x-vault-index')) >= index);
      // The Ward header name works the same.
      const again = await onStandby('secret/data/ryw', {
        token: root,
        headers: { 'X-Service-Index': String(index) },
      });
      assert.equal(again.body.data.data.v, 'one');

      // A write is the active server's: the standby forwards it over the cluster channel.
      const forwarded = await fetch(`${standby.url}/v1/secret/data/ryw`, {
        method: 'POST',
        headers: { 'X-Vault-Token': root },
        body: JSON.stringify({ data: { v: 'two' } }),
        redirect: 'manual',
      });
      assert.equal(forwarded.status, 200);
      const index2 = forwarded.headers.get('x-vault-index') ?? '';
      assert.ok(Number(index2) > index);
      const readBack = await onStandby('secret/data/ryw', { token: root, headers: { 'X-Vault-Index': index2 } });
      assert.equal(readBack.body.data.data.v, 'two');
    });

    // Issue 30 point 3: the paths declare it (`forwardToActive`); the HTTP layer names no path.
    it('hands reads of state only the active server holds (sys/leases/count, sys/ha-status) to the active server', async () => {
      await onActive('POST', 'auth/token/create', { ttl: '1h' });
      const onTheActive = (await onActive('GET', 'sys/leases/count')).body.data.lease_count as number;
      assert.ok(onTheActive >= 1, 'the token is a lease on the active server');
      const viaStandby = await fetch(`${standby.url}/v1/sys/leases/count`, {
        headers: { 'X-Vault-Token': root },
        redirect: 'manual',
      });
      assert.equal(viaStandby.status, 200, 'forwarded over the cluster channel');
      const counted = (await viaStandby.json()) as { data: { lease_count: number } };
      // The standby holds no lease in memory: served there, the count would be 0.
      assert.equal(counted.data.lease_count, onTheActive);
      const ha = await fetch(`${standby.url}/v1/sys/ha-status`, {
        headers: { 'X-Vault-Token': root },
        redirect: 'manual',
      });
      assert.equal(ha.status, 200);
      // A read of an ordinary path is still the standby's own.
      assert.equal((await onStandby('sys/mounts', { token: root })).status, 200);
    });

    it('answers 412 for an index it has not reached, or hands the request over when asked to', async () => {
      const far = String(
        Number((await onActive('POST', 'secret/data/far', { data: { v: 1 } })).headers.get('x-vault-index')) +
          1_000_000,
      );
      const refused = await onStandby('secret/data/far', { token: root, headers: { 'X-Vault-Index': far } });
      assert.equal(refused.status, 412);
      assert.deepEqual(refused.body.errors, ['required index state not present']);
      // Asked to, the standby forwards instead: the active server has every revision.
      const handedOver = await fetch(`${standby.url}/v1/secret/data/far`, {
        headers: { 'X-Vault-Token': root, 'X-Vault-Index': far, 'X-Vault-Inconsistent': 'forward-active-node' },
        redirect: 'manual',
      });
      assert.equal(handedOver.status, 200);
      assert.equal(((await handedOver.json()) as { data: { data: { v: number } } }).data.data.v, 1);
      const bad = await onStandby('secret/data/far', { token: root, headers: { 'X-Vault-Index': 'v1:abc' } });
      assert.equal(bad.status, 400);
    });

    it('sees a secret, policy, token revocation, mount and keyring rotation changed on the active server', async () => {
      await onActive('PUT', 'sys/policies/acl/reader', {
        policy: 'path "secret/data/shared" { capabilities = ["read"] }',
      });
      const token = (await onActive('POST', 'auth/token/create', { policies: ['reader'] })).body.auth
        .client_token as string;
      let written = await onActive('POST', 'secret/data/shared', { data: { v: 'first' } });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).body.data.data.v, 'first');
      // A token lookup is served by the standby too.
      const self = await onStandby('auth/token/lookup-self', afterWrite(written, token));
      assert.deepEqual(self.body.data.policies, ['default', 'reader']);

      // A secret changed: the next read at its index has the new value; without an index, soon after.
      written = await onActive('POST', 'secret/data/shared', { data: { v: 'second' } });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).body.data.data.v, 'second');

      // A policy changed: the standby's compiled ACL follows.
      written = await onActive('PUT', 'sys/policies/acl/reader', {
        policy: 'path "secret/data/other" { capabilities = ["read"] }',
      });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).status, 403);
      written = await onActive('PUT', 'sys/policies/acl/reader', {
        policy: 'path "secret/data/shared" { capabilities = ["read"] }',
      });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).status, 200);

      // A mount added and removed.
      written = await onActive('POST', 'sys/mounts/more', { type: 'kv', options: { version: '2' } });
      written = await onActive('POST', 'more/data/x', { data: { v: 'mounted' } });
      assert.equal((await onStandby('more/data/x', afterWrite(written))).body.data.data.v, 'mounted');
      written = await onActive('DELETE', 'sys/mounts/more');
      assert.equal((await onStandby('more/data/x', afterWrite(written))).status, 404);

      // The keyring rotated: a value written under the new term decrypts on the standby.
      await onActive('POST', 'sys/rotate');
      written = await onActive('POST', 'secret/data/shared', { data: { v: 'new term' } });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).body.data.data.v, 'new term');

      // A token revoked: the standby refuses it.
      written = await onActive('POST', 'auth/token/revoke', { token });
      assert.equal((await onStandby('secret/data/shared', afterWrite(written, token))).status, 403);

      // Without an index the watch still brings the standby up to date promptly.
      await onActive('POST', 'secret/data/shared', { data: { v: 'watched' } });
      await eventually('the standby reads the new value', async () => {
        const read = await onStandby('secret/data/shared', { token: root });
        return read.body?.data?.data?.v === 'watched';
      });
    });

    it('sees an identity change made on the active server (entity policies)', async () => {
      await onActive('POST', 'sys/auth/userpass', { type: 'userpass' });
      await onActive('POST', 'auth/userpass/users/ida', { password: 'pw-of-ida' });
      await onActive('PUT', 'sys/policies/acl/ident', {
        policy: 'path "secret/data/ident" { capabilities = ["read"] }',
      });
      const login = await onActive('POST', 'auth/userpass/login/ida', { password: 'pw-of-ida' }, '');
      const token = login.body.auth.client_token as string;
      const written = await onActive('POST', 'secret/data/ident', { data: { v: 'for the entity' } });
      assert.equal((await onStandby('secret/data/ident', afterWrite(written, token))).status, 403);
      const granted = await onActive('POST', `identity/entity/id/${login.body.auth.entity_id}`, {
        policies: ['ident'],
      });
      const read = await onStandby('secret/data/ident', afterWrite(granted, token));
      assert.equal(read.status, 200);
      assert.equal(read.body.data.data.v, 'for the entity');
    });

    it('serves reads, token lookups and policy checks while the active server is stopped (SIGSTOP)', async () => {
      await onActive('PUT', 'sys/policies/acl/narrow', {
        policy: 'path "secret/data/local" { capabilities = ["read"] }',
      });
      const token = (await onActive('POST', 'auth/token/create', { policies: ['narrow'] })).body.auth
        .client_token as string;
      const written = await onActive('POST', 'secret/data/local', { data: { v: 'here' } });
      await onStandby('secret/data/local', afterWrite(written, token));

      active.ward.child.kill('SIGSTOP');
      try {
        const read = await onStandby('secret/data/local', { token });
        assert.equal(read.status, 200);
        assert.equal(read.body.data.data.v, 'here');
        assert.equal((await onStandby('auth/token/lookup-self', { token })).status, 200);
        assert.equal((await onStandby('secret/data/elsewhere', { token })).status, 403);
        assert.equal((await request(standby.url, 'GET', 'sys/health')).status, 473);
      } finally {
        active.ward.child.kill('SIGCONT');
      }
    });

    it('takes over as the writer when the active server dies (SIGKILL), with every acknowledged write', async () => {
      const written = await onActive('POST', 'secret/data/before-failover', { data: { v: 'kept' } });
      assert.equal(written.status, 200);
      active.ward.child.kill('SIGKILL');
      await active.ward.exited;
      // The lock's lease (15 s here) runs out, then the standby loads as the active server.
      for (let i = 0; i < 300 && (await request(standby.url, 'GET', 'sys/health')).status !== 200; i++)
        await sleep(100);
      assert.equal((await request(standby.url, 'GET', 'sys/health')).status, 200);
      assert.equal(
        (await request(standby.url, 'GET', 'secret/data/before-failover', { token: root })).body.data.data.v,
        'kept',
      );
      const after = await request(standby.url, 'POST', 'secret/data/after-failover', {
        token: root,
        body: { data: { v: 1 } },
      });
      assert.equal(after.status, 200);
      assert.ok(Number(after.headers.get('x-vault-index')) > Number(written.headers.get('x-vault-index')));
    });
  });
