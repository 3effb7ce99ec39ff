import pg from 'pg';
import { InternalError } from '../../logical/errors.js';
import type { StorageBackend, StorageEntry, StorageOperation, StorageSnapshot } from '../storage.js';
import { StorageUnusableError } from '../storage-errors.js';
import { type PostgresConfig, redactedUrl } from './postgresql-config.js';
import { createSchema, type PostgresNames, postgresNames, splitKey } from './postgresql-schema.js';
import { openPostgresSnapshot } from './postgresql-snapshot.js';

/** Rows per INSERT while a restore copies entries in. */
const RESTORE_BATCH = 500;
/** How many revisions the change log keeps for a feed that missed notifications. */
const CHANGES_KEPT = 10_000;
/** NOTIFY payloads are capped at 8000 bytes; a change naming more keys than fit is read from the log. */
const MAX_NOTIFY_KEYS_BYTES = 7_000;

/**
 * `storage "postgresql"`: the established table (`parent_path`, `path`, `key`, `value`), through `pg`.
 * With HA on, every write also raises the store's revision and records and announces (NOTIFY) the
 * keys it changed in the same transaction, which is what the change feed of the standbys follows.
 */
export class PostgresStorage implements StorageBackend {
  readonly pool: pg.Pool;
  readonly names: PostgresNames;
  readonly config: PostgresConfig;
  readonly #ready: Promise<void>;
  #writtenRevision = 0;
  #writes = 0;

  constructor(config: PostgresConfig) {
    this.config = config;
    this.names = postgresNames(config.table, config.haTable);
    this.pool = new pg.Pool({
      connectionString: config.connectionUrl,
      max: config.maxParallel,
      min: config.maxIdleConnections,
      idleTimeoutMillis: 10_000,
    });
    // A connection that breaks while idle in the pool is dropped by pg; this keeps it from being an unhandled 'error'.
    this.pool.on('error', () => {});
    this.#ready = this.pool.connect().then(async (client) => {
      try {
        await createSchema(client, this.names, config.haEnabled);
      } finally {
        client.release();
      }
    });
    this.#ready.catch(() => {});
  }

  /**
   * A store whose connection works and whose tables exist; a database that cannot be reached or
   * used is a `StorageUnusableError` naming it (without its password) and the reason.
   */
  static async open(config: PostgresConfig): Promise<PostgresStorage> {
    const storage = new PostgresStorage(config);
    try {
      await storage.opened();
    } catch (err) {
      await storage.close().catch(() => {});
      const reason = err instanceof Error ? err.message : String(err);
      throw new StorageUnusableError(
        `storage "postgresql": cannot use the database at ${redactedUrl(config.connectionUrl)}: ${reason}`,
        { cause: err },
      );
    }
    return storage;
  }

  /** Resolves once the connection works and the tables exist (every operation waits for it). */
  opened(): Promise<void> {
    return this.#ready;
  }

  /** The revision this process's latest write reached (0 before any, and without HA). */
  get writtenRevision(): number {
    return this.#writtenRevision;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.#ready;
    const { path, key: name } = splitKey(key);
    const { rows } = await this.pool.query<{ value: Buffer }>(
      `SELECT value FROM ${this.names.kv} WHERE path = $1 AND key = $2`,
      [path, name],
    );
    const value = rows[0]?.value;
    return value === undefined ? undefined : new Uint8Array(value);
  }

  async holds(key: string, value: Uint8Array): Promise<boolean> {
    await this.#ready;
    const { path, key: name } = splitKey(key);
    const { rows } = await this.pool.query<{ same: boolean }>(
      `SELECT value = $3 AS same FROM ${this.names.kv} WHERE path = $1 AND key = $2`,
      [path, name, asBuffer(key, value)],
    );
    return rows[0]?.same === true;
  }

  put(key: string, value: Uint8Array): Promise<void> {
    return this.transaction([{ op: 'put', key, value }]);
  }

  delete(key: string): Promise<void> {
    return this.transaction([{ op: 'delete', key }]);
  }

  /** As established: the keys at `prefix`, and the first folder of every deeper path (one index range each). */
  async list(prefix: string): Promise<string[]> {
    await this.#ready;
    const path = `/${prefix}`;
    // `path` ends in '/': every parent_path below it sorts from it up to the same text ending in '0'.
    const end = `${path.slice(0, -1)}0`;
    const { rows } = await this.pool.query<{ name: string }>(
      `SELECT name FROM (
         SELECT key AS name FROM ${this.names.kv} WHERE path = $1
         UNION
         SELECT substring(substr(path, length($1) + 1) from '^[^/]*/') FROM ${this.names.kv}
           WHERE parent_path >= $1 AND parent_path < $2
       ) AS children ORDER BY name COLLATE "C"`,
      [path, end],
    );
    return rows.map((r) => r.name);
  }

  async transaction(operations: StorageOperation[]): Promise<void> {
    // Check every value before sending anything: a bad one leaves the store as it was.
    const staged = operations.map((o) => (o.op === 'put' ? { ...o, value: asBuffer(o.key, o.value) } : o));
    if (staged.length === 0) return;
    await this.#ready;
    if (staged.length === 1 && !this.config.haEnabled) return this.#apply(this.pool, staged[0] as StorageOperation);
    await this.#inTransaction(async (client) => {
      for (const o of staged) await this.#apply(client, o);
      return this.#announce(client, [...new Set(staged.map((o) => o.key))], false);
    });
  }

  async openSnapshot(): Promise<StorageSnapshot> {
    await this.#ready;
    return openPostgresSnapshot(await this.pool.connect(), this.names);
  }

  /** One transaction: every row deleted, the entries inserted as they arrive; a failure rolls it all back. */
  async replaceAll(entries: AsyncIterable<StorageEntry>): Promise<void> {
    await this.#ready;
    await this.#inTransaction(async (client) => {
      await client.query(`DELETE FROM ${this.names.kv}`);
      let batch: unknown[][] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const values = batch.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`);
        await client.query(
          `INSERT INTO ${this.names.kv} VALUES ${values.join(', ')}
           ON CONFLICT (path, key) DO UPDATE SET value = EXCLUDED.value`,
          batch.flat(),
        );
        batch = [];
      };
      for await (const { key, value } of entries) {
        if (typeof key !== 'string') throw new InternalError('storage key must be a string');
        const { parentPath, path, key: name } = splitKey(key);
        batch.push([parentPath, path, name, asBuffer(key, value)]);
        // The same key twice in one INSERT … ON CONFLICT is an error: flush before a batch could hold both.
        if (batch.length >= RESTORE_BATCH) await flush();
      }
      await flush();
      return this.#announce(client, [], true);
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async #apply(client: pg.Pool | pg.PoolClient, o: StorageOperation): Promise<void> {
    const { parentPath, path, key } = splitKey(o.key);
    if (o.op === 'put') {
      await client.query(
        `INSERT INTO ${this.names.kv} VALUES ($1, $2, $3, $4)
         ON CONFLICT (path, key) DO UPDATE SET (parent_path, path, key, value) = ($1, $2, $3, $4)`,
        [parentPath, path, key, o.value],
      );
    } else {
      await client.query(`DELETE FROM ${this.names.kv} WHERE path = $1 AND key = $2`, [path, key]);
    }
  }

  /**
   * With HA on: raises the revision (the row lock orders concurrent writers, so revisions commit in
   * order), logs what changed and NOTIFYs it, all in the caller's transaction. Last, so the lock is
   * held only until the commit.
   */
  async #announce(client: pg.PoolClient, keys: string[], isEverything: boolean): Promise<number> {
    if (!this.config.haEnabled) return 0;
    const keysJson = JSON.stringify(keys);
    const n = this.names;
    const { rows } = await client.query<{ revision: string }>(
      `WITH r AS (UPDATE ${n.revision} SET revision = revision + 1 WHERE id = 1 RETURNING revision),
         l AS (INSERT INTO ${n.changes} SELECT revision, $1::text[], $2 FROM r),
         s AS (SELECT pg_notify($3, json_build_object('revision', r.revision, 'keys', $4::json)::text) FROM r)
       SELECT r.revision FROM r, s`,
      [
        keys,
        isEverything,
        n.channel,
        isEverything || Buffer.byteLength(keysJson) > MAX_NOTIFY_KEYS_BYTES ? null : keysJson,
      ],
    );
    return Number(rows[0]?.revision);
  }

  /** Runs `body` in one transaction; it returns the revision its writes reached (0 without HA). */
  async #inTransaction(body: (client: pg.PoolClient) => Promise<number>): Promise<void> {
    const client = await this.pool.connect();
    let revision: number;
    try {
      await client.query('BEGIN');
      revision = await body(client);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      throw err;
    }
    client.release();
    if (revision > this.#writtenRevision) this.#writtenRevision = revision;
    if (revision > 0 && ++this.#writes % 500 === 0) {
      await this.pool
        .query(`DELETE FROM ${this.names.changes} WHERE revision <= $1`, [revision - CHANGES_KEPT])
        .catch(() => {});
    }
  }
}

/** The value as a Buffer over the same bytes (pg sends a Buffer as bytea); refuses anything but bytes. */
function asBuffer(key: string, value: unknown): Buffer {
  if (!(value instanceof Uint8Array)) throw new InternalError(`storage value for "${key}" must be a Uint8Array`);
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
