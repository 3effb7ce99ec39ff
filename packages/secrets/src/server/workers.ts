import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteStorageOptions, StorageConfig } from '../storage/index.js';
import type { ServerConfig } from './config.js';

/**
 * Why a configuration cannot run `workers` processes, or `undefined` when it can: the processes
 * share one SQLite file (HA between them needs its lock row and change log); a store in memory is
 * each process's own, and etcd or PostgreSQL already share a store between separate servers.
 */
export function workersRefusal(config: ServerConfig, workers: number): string | undefined {
  if (workers === 1) return undefined;
  if (config.storage.type !== 'sqlite') {
    return `workers = ${workers} needs storage "sqlite" (the worker processes share its file); storage "${config.storage.type}" runs one process (with etcd or PostgreSQL, run more servers with ha_enabled instead)`;
  }
  if (config.clusterAddr !== undefined || config.listeners.some((l) => l.clusterAddress)) {
    return `workers = ${workers}: cluster_addr and cluster_address are not used (the workers forward over Unix sockets of their own); remove them`;
  }
  return undefined;
}

/**
 * Where worker `id`'s sockets live: a directory beside the database file (made mode 0700), so
 * only the server's own user reaches them. `worker-<id>.sock` serves the API of that worker alone
 * (an operator addresses one worker with `curl --unix-socket`, or scrapes its metrics);
 * `worker-<id>.cluster.sock` is the channel standbys forward writes through.
 */
function workerSocketDir(config: ServerConfig): string {
  return `${(config.storage.settings as SqliteStorageOptions).path}.workers`;
}

function workerSockets(config: ServerConfig, id: number): { api: string; cluster: string } {
  const dir = workerSocketDir(config);
  return { api: join(dir, `worker-${id}.sock`), cluster: join(dir, `worker-${id}.cluster.sock`) };
}

/** The SQLite store as the workers share it: with the change log and the lock's table. */
export function sharedStorage(config: ServerConfig): StorageConfig {
  const settings: SqliteStorageOptions = { ...(config.storage.settings as SqliteStorageOptions), hasChangeLog: true };
  return { ...config.storage, settings };
}

/**
 * The configuration worker `id` runs: the SQLite store with its change log (HA between the
 * workers), a cluster channel on its own Unix socket, and one more listener, on the worker's own
 * API socket, beside the shared ones.
 */
export function workerConfig(config: ServerConfig, id: number): ServerConfig {
  const sockets = workerSockets(config, id);
  mkdirSync(workerSocketDir(config), { recursive: true, mode: 0o700 });
  // A socket left by a worker killed before it closed it.
  rmSync(sockets.api, { force: true });
  const first = config.listeners[0];
  return {
    ...config,
    storage: sharedStorage(config),
    clusterAddr: `unix://${sockets.cluster}`,
    listeners: [
      ...config.listeners,
      {
        address: `unix:${sockets.api}`,
        socketPath: sockets.api,
        tlsDisable: true,
        maxRequestSize: first?.maxRequestSize ?? 0,
        jsonLimits: first?.jsonLimits,
        unauthenticatedMetricsAccess: first?.unauthenticatedMetricsAccess,
      },
    ],
  };
}
