import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresServer } from '@ward/base/testing';
import { request } from '../src/server/testing.js';
import {
  type HaNode,
  healthBecomes,
  initAndUnseal,
  killAll,
  postgresHaStorage,
  startHaNode,
} from './ha-nodes.testing.js';

/** Concurrent writers kept busy against the active server while it loses its lock. */
const WRITERS = 8;

/**
 * Issue 28 point 9, through bin/ward on PostgreSQL HA storage: a steady stream of concurrent writes
 * to the active server while it loses its lock (step-down, then SIGSTOP for longer than the lock
 * TTL and SIGCONT). No answer is a 500: each is a success (served or forwarded), or 503/429 with
 * a Retry-After; every acknowledged write is readable afterwards.
 */
describe('HA: writes in flight while the active server loses its lock (issue 28 point 9)', () => {
  let dir: string;
  let pg: PostgresServer;
  const nodes: HaNode[] = [];
  let token: string;
  /** Every write a server acknowledged (200), by path, with the value written. */
  const acknowledged = new Map<string, number>();
  /** Every answer that was neither a success nor a retry hint. */
  const wrong: string[] = [];
  const statuses = new Map<string, number>();

  const write = async (via: HaNode, path: string, v: number) => {
    const res = await request(via.url, 'POST', `secret/data/${path}`, { token, body: { data: { v } } });
    const tally = `${res.status}`;
    statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
    if (res.status === 200) acknowledged.set(path, v);
    else if (!((res.status === 503 || res.status === 429) && res.headers.get('retry-after')))
      wrong.push(`${res.status} ${JSON.stringify(res.body)} via ${via.name}`);
  };
  /** Runs WRITERS concurrent write loops against each of `targets` until `during` resolves. */
  const writeWhile = async (targets: HaNode[], label: string, during: () => Promise<void>) => {
    let writing = true;
    const writers = targets.flatMap((via) =>
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; writing; i++) await write(via, `${label}-${via.name}-${w}-${i}`, i);
      }),
    );
    await sleep(300);
    try {
      await during();
    } finally {
      await sleep(500);
      writing = false;
      await Promise.all(writers);
    }
  };
  const everyAcknowledgedWriteReadable = async (via: HaNode) => {
    for (const [path, v] of acknowledged) {
      const read = await request(via.url, 'GET', `secret/data/${path}`, { token });
      assert.equal(read.status, 200, `${path} through ${via.name}`);
      assert.equal(read.body.data.data.v, v, `${path} through ${via.name}`);
    }
  };
  const activeOf = async (): Promise<HaNode> => {
    for (let i = 0; i < 300; i++) {
      const healths = await Promise.all(nodes.map((n) => request(n.url, 'GET', 'sys/health').then((r) => r.status)));
      const active = nodes.filter((_n, j) => healths[j] === 200);
      if (active.length === 1 && active[0]) return active[0];
      await sleep(100);
    }
    assert.fail('no single active server');
  };

  before(async () => {
    pg = await PostgresServer.start();
    const storage = postgresHaStorage(await pg.createDatabase());
    dir = await mkdtemp(join(tmpdir(), 'ward-ha-lost-lock-'));
    const a = await startHaNode('a', { storage, dir });
    nodes.push(a);
    let key: string;
    ({ key, token } = await initAndUnseal(a));
    const b = await startHaNode('b', { storage, dir });
    nodes.push(b);
    await request(b.url, 'PUT', 'sys/unseal', { body: { key } });
    await healthBecomes(b.url, 429);
  });
  after(async () => {
    for (const n of nodes) n.ward.child.kill('SIGCONT');
    await killAll(nodes);
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('step-down under a stream of writes: no 500, no acknowledged write lost', async (t) => {
    for (let round = 0; round < 3; round++) {
      const active = await activeOf();
      await writeWhile([active], `step-down-${round}`, async () => {
        assert.equal((await request(active.url, 'PUT', 'sys/step-down', { token })).status, 204);
        await healthBecomes(active.url, 429);
      });
    }
    t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.deepEqual(wrong, []);
    assert.ok(acknowledged.size > 20);
    for (const node of nodes) await everyAcknowledgedWriteReadable(node);
  });

  it('SIGSTOP of the active server beyond the lock TTL, then SIGCONT, writes to it and through the standby: no 500, no acknowledged write lost', async (t) => {
    const active = await activeOf();
    const other = nodes.find((n) => n !== active) as HaNode;
    await writeWhile([active, other], 'sigstop', async () => {
      active.ward.child.kill('SIGSTOP');
      await healthBecomes(other.url, 200);
      await sleep(1000);
      active.ward.child.kill('SIGCONT');
      await healthBecomes(active.url, 429);
    });
    t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.deepEqual(wrong, []);
    for (const node of nodes) await everyAcknowledgedWriteReadable(node);
  });
});
