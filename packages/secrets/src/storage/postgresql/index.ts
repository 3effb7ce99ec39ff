/** `storage "postgresql"`: one table in HashiCorp Vault's layout; HA with a lock row and LISTEN/NOTIFY as the change feed. @module */
import { defineStorage } from '../storage-type.js';
import { PostgresStorage } from './postgresql.js';
import { PostgresChangeFeed } from './postgresql-change-feed.js';
import { POSTGRES_KEYS, parsePostgresConfig, redactedUrl } from './postgresql-config.js';
import { PostgresHaLock } from './postgresql-lock.js';

export { PostgresStorage } from './postgresql.js';
export { PostgresChangeFeed } from './postgresql-change-feed.js';
export type { PostgresConfig } from './postgresql-config.js';
export { PostgresHaLock } from './postgresql-lock.js';

/** The lock's row, named as the established servers name their HA lock. */
const LOCK_KEY = 'core/lock';

/** `storage "postgresql"`: the established table layout; HA with a lock row and LISTEN/NOTIFY as the change feed. */
export const postgresqlStorage = defineStorage({
  keys: POSTGRES_KEYS,
  parse: (block) => parsePostgresConfig(block),
  create: (config) => PostgresStorage.open(config),
  describe: (config) => `connection_url: ${redactedUrl(config.connectionUrl)}, table: ${config.table}`,
  ha: (backend, config) =>
    config.haEnabled
      ? {
          newLock: (value) =>
            new PostgresHaLock({
              pool: backend.pool,
              table: backend.names.ha,
              key: LOCK_KEY,
              value,
              ttlSeconds: config.lockTtlSeconds,
            }),
          feed: new PostgresChangeFeed(backend),
        }
      : undefined,
});
