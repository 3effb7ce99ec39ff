import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresServer } from '@ward/base/testing';
import { request } from '../src/server/testing.js';
import { type EtcdMember, startEtcdCluster } from '../src/storage/testing.js';
import {
  etcdHaStorage,
  type HaNode,
  type HaStorage,
  healthBecomes,
  initAndUnseal,
  killAll,
  postgresHaStorage,
  startHaNode,
} from './ha-nodes.testing.js';

/** The bound for a takeover after the active server dies (lock TTL + election). */
const TAKEOVER_BOUND_MS = 15_000;

/** A shared storage for the failover tests; an etcd cluster also has members to kill. */
interface FailoverStorage {
  storage: HaStorage;
  /** One member of a replicated storage that can be killed and restarted (etcd). */
  member?: EtcdMember;
  stop(): Promise<void>;
}

const STORAGES: ReadonlyArray<{ name: string; hasMembers: boolean; start(): Promise<FailoverStorage> }> = [
  {
    name: 'a three-member etcd cluster',
    hasMembers: true,
    async start() {
      const etcd = await startEtcdCluster(3);
      return { storage: etcdHaStorage(etcd.urls), member: etcd.members[1], stop: () => etcd.stop() };
    },
  },
  {
    // Issue 29: the lock row in vault_ha_locks, the change feed through LISTEN/NOTIFY.
    name: 'PostgreSQL',
    hasMembers: false,
    async start() {
      const server = await PostgresServer.start();
      return { storage: postgresHaStorage(await server.createDatabase()), stop: () => server.stop() };
    },
  },
];

/**
 * Three `bin/ward` servers on one shared storage (issue 19 point 4, issue 29): writes through any
 * server, SIGKILL of the active server (and of an etcd member), a restarted server rejoining,
 * step-down, and background work (lease expiration) resuming on the new active server.
 */
for (const backend of STORAGES)
  describe(`HA failover: three servers on ${backend.name}`, () => {
    let dir: string;
    let shared: FailoverStorage;
    const nodes: HaNode[] = [];
    let key: string;
    let token: string;
    /** Every write a server acknowledged (200), by path, with the value written. */
    const acknowledged = new Map<string, number>();

    const start = async (name: string) => {
      const node = await startHaNode(name, { storage: shared.storage, dir });
      nodes.push(node);
      return node;
    };
    const running = () => nodes.filter((n) => n.ward.child.exitCode === null && n.ward.child.signalCode === null);
    /** The server that answers sys/health 200 (polls until exactly one does, within `boundMs`). */
    const activeNode = async (boundMs = 30_000): Promise<HaNode> => {
      const started = Date.now();
      while (Date.now() - started < boundMs) {
        const healths = await Promise.all(
          running().map((n) =>
            request(n.url, 'GET', 'sys/health').then(
              (r) => r.status,
              () => 0,
            ),
          ),
        );
        const active = running().filter((_n, i) => healths[i] === 200);
        if (active.length === 1 && active[0]) return active[0];
        await sleep(50);
      }
      assert.fail(`no single active server within ${boundMs} ms`);
    };
    const write = async (via: HaNode, path: string, v: number) => {
      const res = await request(via.url, 'POST', `secret/data/${path}`, { token, body: { data: { v } } });
      if (res.status === 200) acknowledged.set(path, v);
      return res.status;
    };
    const everyAcknowledgedWriteReadable = async (via: HaNode) => {
      for (const [path, v] of acknowledged) {
        const read = await request(via.url, 'GET', `secret/data/${path}`, { token });
        assert.equal(read.status, 200, `${path} through ${via.name}`);
        assert.equal(read.body.data.data.v, v, `${path} through ${via.name}`);
      }
    };

    before(async () => {
      shared = await backend.start();
      dir = await mkdtemp(join(tmpdir(), 'ward-ha-failover-'));
      const a = await start('a');
      ({ key, token } = await initAndUnseal(a));
      for (const name of ['b', 'c']) {
        const node = await start(name);
        await request(node.url, 'PUT', 'sys/unseal', { body: { key } });
        await healthBecomes(node.url, 429);
      }
    });
    after(async () => {
      await killAll(nodes);
      await shared?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('takes writes through every server (the standbys forward them)', async () => {
      for (const [i, node] of nodes.entries()) assert.equal(await write(node, `through-${node.name}`, i), 200);
      for (const node of nodes) await everyAcknowledgedWriteReadable(node);
    });

    it('SIGKILL of the active server: a standby takes over within 15 s, every acknowledged write readable, and the lease it holds expires there', async (t) => {
      const old = await activeNode();
      const via = running().find((n) => n !== old) as HaNode;
      // A token whose lease ends after the takeover: only the new active server's expiration manager can revoke it.
      const created = await request(via.url, 'POST', 'auth/token/create', {
        token,
        body: { ttl: '12s', policies: ['default'] },
      });
      assert.equal(created.status, 200);
      const accessor = created.body.auth.accessor as string;
      // Writes keep coming through a standby while the active server dies; some fail, none acknowledged is lost.
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing; i++) await write(via, `during-${i}`, i).catch(() => 0);
      })();
      await sleep(300);
      const killedAt = Date.now();
      old.ward.child.kill('SIGKILL');
      await old.ward.exited;
      const next = await activeNode(TAKEOVER_BOUND_MS);
      const takeoverMs = Date.now() - killedAt;
      t.diagnostic(`takeover after SIGKILL of the active server: ${takeoverMs} ms (lock_ttl 2s)`);
      await sleep(500);
      writing = false;
      await writer;
      assert.ok(acknowledged.size > 3);
      for (const node of running()) await everyAcknowledgedWriteReadable(node);

      // The lease outlived the takeover, and the new active server revokes it when it ends.
      const lookup = () => request(next.url, 'POST', 'auth/token/lookup-accessor', { token, body: { accessor } });
      assert.equal((await lookup()).status, 200, 'the token lease was still alive after the takeover');
      let status = 200;
      for (let i = 0; i < 300 && status === 200; i++) {
        status = (await lookup()).status;
        if (status === 200) await sleep(100);
      }
      assert.notEqual(status, 200, 'the new active server revoked the expired token');
    });

    it('a restarted server unseals and rejoins as standby, and forwards', async () => {
      const killed = nodes.find((n) => !running().includes(n)) as HaNode;
      const again = await start(killed.name);
      await request(again.url, 'PUT', 'sys/unseal', { body: { key } });
      await healthBecomes(again.url, 429);
      const active = await activeNode();
      assert.equal((await request(again.url, 'GET', 'sys/leader')).body.leader_address, active.url);
      assert.equal(await write(again, 'after-rejoin', 7), 200);
      await everyAcknowledgedWriteReadable(active);
    });

    it('SIGKILL of one etcd member: the service continues', { skip: !backend.hasMembers }, async () => {
      const member = shared.member;
      assert.ok(member);
      await member.kill('SIGKILL');
      try {
        for (const node of running()) {
          let status = 0;
          for (let i = 0; i < 100 && status !== 200; i++) {
            status = await write(node, `etcd-member-down-${node.name}`, i).catch(() => 0);
            if (status !== 200) await sleep(100);
          }
          assert.equal(status, 200, `a write through ${node.name} with one etcd member down`);
        }
        for (const node of running()) await everyAcknowledgedWriteReadable(node);
      } finally {
        await member.restart();
      }
    });

    it('sys/step-down hands over to a standby', async () => {
      const before = await activeNode();
      assert.equal((await request(before.url, 'PUT', 'sys/step-down', { token })).status, 204);
      const after = await activeNode();
      assert.notEqual(after, before);
      await healthBecomes(before.url, 429);
      assert.equal((await request(before.url, 'GET', 'sys/leader')).body.leader_address, after.url);
      assert.equal(await write(before, 'after-step-down', 8), 200);
      for (const node of running()) await everyAcknowledgedWriteReadable(node);
    });
  });
