import { defineStorage } from '../storage-type.js';
import { EtcdStorage } from './etcd.js';
import { EtcdChangeFeed } from './etcd-change-feed.js';
import { ETCD_KEYS, etcdStorageOptions, parseEtcdConfig } from './etcd-config.js';
import { EtcdHaLock } from './etcd-lock.js';

export { EtcdStorage, type EtcdStorageOptions } from './etcd.js';
export { EtcdChangeFeed } from './etcd-change-feed.js';
export type { EtcdConfig } from './etcd-config.js';
export { EtcdHaLock, type EtcdHaLockOptions } from './etcd-lock.js';

/** `storage "etcd"`: a replicated etcd cluster; HA with a lease-backed lock and a watch as the change feed. */
export const etcdStorage = defineStorage({
  keys: ETCD_KEYS,
  parse: parseEtcdConfig,
  create: (config) => new EtcdStorage(etcdStorageOptions(config)),
  describe: (config) => `address: ${config.addresses.join(',')}, path: ${config.prefix}`,
  ha: (backend, config) =>
    config.haEnabled
      ? {
          newLock: (value) =>
            new EtcdHaLock({
              client: backend.client,
              key: backend.haLockKey,
              ttlSeconds: config.lockTtlSeconds,
              value,
            }),
          feed: new EtcdChangeFeed(backend),
        }
      : undefined,
});
