import { BlockValues } from '../block-values.js';
import type { StorageBlock } from '../storage-type.js';

/** `storage "postgresql" { … }`, validated. */
export interface PostgresConfig {
  /** `connection_url` (or the environment's `VAULT_PG_CONNECTION_URL`, which wins, as established). */
  connectionUrl: string;
  /** `table`: the key/value table (default `vault_kv_store`). */
  table: string;
  /** `max_parallel`: connections open at once at most (default 128). */
  maxParallel: number;
  /** `max_idle_connections`: idle connections kept open; more are closed after a while (default 2). */
  maxIdleConnections: number;
  /** `ha_enabled`: several servers share this database, one active. */
  haEnabled: boolean;
  /** `ha_table`: the lock table (default `vault_ha_locks`). */
  haTable: string;
  /** `lock_ttl` (Ward's own, as for etcd): how long the HA lock outlives its holder's last renewal. */
  lockTtlSeconds: number;
}

export const POSTGRES_KEYS = [
  'connection_url',
  'table',
  'max_parallel',
  'max_idle_connections',
  'ha_enabled',
  'ha_table',
  'lock_ttl',
] as const;

/** The established defaults: the lock lives 15 s past its last renewal (renewed every 5 s). */
const DEFAULT_LOCK_TTL_SECONDS = 15;
const LOCK_TTL_RANGE = { min: 2, max: 3_600 };
/** The established default of the connection pool (Go's database/sql keeps 2 idle connections). */
const DEFAULT_MAX_PARALLEL = 128;
const DEFAULT_MAX_IDLE = 2;

export function parsePostgresConfig(block: StorageBlock, env: NodeJS.ProcessEnv = process.env): PostgresConfig {
  const v = new BlockValues('postgresql', block);
  const fromEnv = env.VAULT_PG_CONNECTION_URL;
  const connectionUrl = fromEnv !== undefined && fromEnv !== '' ? fromEnv : v.text('connection_url');
  if (connectionUrl === undefined) throw v.error('connection_url is required (or VAULT_PG_CONNECTION_URL)');
  if (!/^postgres(ql)?:\/\//.test(connectionUrl)) {
    throw v.error('connection_url must be a URL starting with postgres:// or postgresql://');
  }
  const maxParallel = v.integer('max_parallel', DEFAULT_MAX_PARALLEL, 1);
  return {
    connectionUrl,
    table: v.text('table') ?? 'vault_kv_store',
    maxParallel,
    maxIdleConnections: Math.min(v.integer('max_idle_connections', DEFAULT_MAX_IDLE, 0), maxParallel),
    haEnabled: v.flag('ha_enabled', false),
    haTable: v.text('ha_table') ?? 'vault_ha_locks',
    lockTtlSeconds: v.seconds('lock_ttl', DEFAULT_LOCK_TTL_SECONDS, LOCK_TTL_RANGE),
  };
}

/** Where the database is, never its password (for the banner and errors). */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
