import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresServer } from '@ward/base/testing';
import { mountKvV2AtSecret, request } from '../src/server/testing.js';
import { startEtcd } from '../src/storage/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

/** The shared storage an HA cluster's servers are configured with. */
export interface HaStorage {
  /** The `storage` block, with the HA lock's TTL. */
  block(lockTtl: string): string;
}

/** etcd, at every member's client URL. */
export function etcdHaStorage(urls: string[]): HaStorage {
  return {
    block: (lockTtl) =>
      `storage "etcd" {\n  address = "${urls.join(',')}"\n  path = "ha/"\n  ha_enabled = "true"\n  lock_ttl = "${lockTtl}"\n}\n`,
  };
}

/** A PostgreSQL database (issue 29): the established keys, the lock in the ha table. */
export function postgresHaStorage(connectionUrl: string): HaStorage {
  return {
    block: (lockTtl) =>
      `storage "postgresql" {\n  connection_url = "${connectionUrl}"\n  ha_enabled = "true"\n  ha_table = "vault_ha_locks"\n  lock_ttl = "${lockTtl}"\n}\n`,
  };
}

/** A throwaway shared storage for an HA cluster, started by the test. */
export interface SharedHaStorage {
  name: string;
  storage: HaStorage;
  stop(): Promise<void>;
}

/** The shared storages Ward's HA runs on, each started fresh: the HA tests run on every one. */
export const SHARED_HA_STORAGES: ReadonlyArray<{ name: string; start(): Promise<SharedHaStorage> }> = [
  {
    name: 'etcd',
    async start() {
      const etcd = await startEtcd();
      return { name: 'etcd', storage: etcdHaStorage([etcd.url]), stop: () => etcd.stop() };
    },
  },
  {
    name: 'postgresql',
    async start() {
      const server = await PostgresServer.start();
      const url = await server.createDatabase();
      return { name: 'postgresql', storage: postgresHaStorage(url), stop: () => server.stop() };
    },
  },
];

/** One `bin/ward server` of an HA cluster, as the HA tests start it. */
export interface HaNode {
  name: string;
  ward: WardProcess;
  url: string;
}

export interface HaNodeOptions {
  /** The storage every server of the cluster shares. */
  storage: HaStorage;
  /** Where the configuration file goes. */
  dir: string;
  /** Listen on the cluster channel and forward (default true). */
  cluster?: boolean;
  /** Extra lines inside the listener block (limits). */
  listenerExtra?: string;
  /** A standby serves reads itself (default false: a plain standby, `disable_performance_standby`). */
  performanceStandby?: boolean;
  /** The HA lock's TTL (default 2s: quick failovers). */
  lockTtl?: string;
}

/** Starts a server of the cluster and waits until it listens; its cluster port is picked by the kernel. */
export async function startHaNode(name: string, o: HaNodeOptions): Promise<HaNode> {
  const config = join(o.dir, `${name}.hcl`);
  const storage = o.storage.block(o.lockTtl ?? '2s');
  const listener = `listener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n${o.listenerExtra ?? ''}}\n`;
  const cluster = o.cluster === false ? '' : 'cluster_addr = "https://127.0.0.1:0"\n';
  const standby = o.performanceStandby ? '' : 'disable_performance_standby = true\n';
  await writeFile(config, `${storage}${listener}${cluster}${standby}`);
  const ward = startWard(['server', `-config=${config}`]);
  const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
  return { name, ward, url: url as string };
}

/** Polls until `url` answers `sys/health` with `status` (a bound, not a timing assertion). */
export async function healthBecomes(url: string, status: number, query = ''): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const res = await request(url, 'GET', `sys/health${query}`, { headers: { 'X-Vault-Request': 'true' } }).catch(
      () => undefined,
    );
    if (res?.status === status) return;
    await sleep(100);
  }
  assert.fail(`${url} never answered sys/health with ${status}`);
}

/**
 * Initialises the cluster through `node`, unseals it and mounts KV version 2 at `secret/` (what
 * these tests write; a configured server's own is version 1); returns the key and root token.
 */
export async function initAndUnseal(node: HaNode): Promise<{ key: string; token: string }> {
  const init = await request(node.url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
  const [key] = init.body.keys as string[];
  await request(node.url, 'PUT', 'sys/unseal', { body: { key } });
  await healthBecomes(node.url, 200);
  const token = init.body.root_token as string;
  await mountKvV2AtSecret(node.url, token);
  return { key: key as string, token };
}

/** Kills every server still running and waits for each to be gone. */
export async function killAll(nodes: HaNode[]): Promise<void> {
  for (const n of nodes) n.ward.child.kill('SIGKILL');
  await Promise.all(nodes.map((n) => n.ward.exited));
}
