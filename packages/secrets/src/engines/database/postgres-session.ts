import type { Random } from '@ward/base';
import pg from 'pg';
import type { ConnectionTarget } from './connection-url.js';
import type { PoolLimits, SessionDeps, SqlSession } from './sql-session.js';

/** `name` as a quoted PostgreSQL identifier. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Attempts of a transaction that lost a race with a concurrent one (see `isConcurrencyConflict`). */
const MAX_ATTEMPTS = 10;

/**
 * Whether a failed transaction lost a race and may simply run again: a serialization failure,
 * a deadlock, or the catalog's "tuple concurrently updated", which PostgreSQL raises (with
 * the generic code XX000) when two transactions GRANT on one table at once, as concurrent
 * requests of one role do.
 */
function isConcurrencyConflict(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  if (code === '40001' || code === '40P01') return true;
  return code === 'XX000' && /concurrently/.test(message ?? '');
}

/** Runs `work` again (after a short random pause) while it fails with a concurrency conflict. */
async function withRetries(random: Random, work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isConcurrencyConflict(err)) throw err;
      // Full jitter, doubling up to 640 ms: the transactions that collided must not meet again.
      await new Promise((resolve) => setTimeout(resolve, fraction(random) * 10 * 2 ** Math.min(attempt, 6)));
    }
  }
}

/** A uniform fraction in [0, 1) from `random`. */
const fraction = (random: Random) => Buffer.from(random.bytes(4)).readUInt32BE() / 2 ** 32;

/**
 * `BEGIN`, the statements and `COMMIT` as one simple-protocol query: one round trip, where one per
 * statement made a cycle of `creds` wait on the network three times as often (`BENCH.md`). The
 * rendered statements carry no parameters. PostgreSQL stops at the first failing statement and
 * leaves the transaction aborted; the `ROLLBACK` below ends it. Each statement ends on a line of
 * its own, so a trailing `--` comment cannot swallow the separator.
 */
export function transactionText(statements: readonly string[]): string {
  return ['BEGIN', ...statements, 'COMMIT'].map((s) => `${s}\n;`).join('\n');
}

async function runTransaction(pool: pg.Pool, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(transactionText(statements));
    client.release();
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    client.release(true);
    throw err;
  }
}

/** A `pg` pool over one configured PostgreSQL database. */
export function openPostgres(target: ConnectionTarget, limits: PoolLimits, deps: SessionDeps): SqlSession {
  const sslmode = target.params.get('sslmode');
  const pool = new pg.Pool({
    host: target.socketPath ?? target.host,
    port: target.port,
    user: target.user,
    password: target.password,
    database: target.database,
    ssl:
      sslmode === undefined || sslmode === 'disable' || sslmode === 'allow' || sslmode === 'prefer'
        ? false
        : { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' },
    max: limits.maxOpen,
    idleTimeoutMillis: 10_000,
    maxLifetimeSeconds: limits.maxLifetimeSeconds,
    connectionTimeoutMillis: 30_000,
    application_name: target.params.get('application_name') ?? 'ward',
  });
  // An idle connection the server ended (a restart, a terminated backend) must not crash the process.
  pool.on('error', () => {});
  return {
    transaction: (statements) => withRetries(deps.random, () => runTransaction(pool, statements)),
    async each(statements) {
      const failures: string[] = [];
      for (const statement of statements) {
        await pool.query(statement).catch((err: Error) => failures.push(err.message));
      }
      return failures;
    },
    async userExists(username) {
      const result = await pool.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [username]);
      return (result.rowCount ?? 0) > 0;
    },
    dropUser: (username) =>
      withRetries(deps.random, async () => {
        const client = await pool.connect();
        try {
          await dropPostgresUser(client, username);
        } finally {
          client.release();
        }
      }),
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

/**
 * The established default revocation of a PostgreSQL user: its privileges on the tables,
 * sequences and schemas it was granted anything in (and `public`), and on the database, are
 * revoked (each on its own, past failures), then the role is dropped.
 */
async function dropPostgresUser(client: pg.PoolClient, username: string): Promise<void> {
  const user = quoteIdent(username);
  const grants = await client.query<{ table_schema: string }>(SCHEMAS_SQL, [username]);
  const schemas = new Set(['public', ...grants.rows.map((r) => r.table_schema)]);
  const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db ?? '';
  const statements: string[] = [];
  for (const schema of schemas) {
    const s = quoteIdent(schema);
    statements.push(
      `REVOKE ALL PRIVILEGES ON ALL TABLES IN SCHEMA ${s} FROM ${user}`,
      `REVOKE ALL PRIVILEGES ON ALL SEQUENCES IN SCHEMA ${s} FROM ${user}`,
      `REVOKE USAGE ON SCHEMA ${s} FROM ${user}`,
    );
  }
  statements.push(`REVOKE CONNECT ON DATABASE ${quoteIdent(database)} FROM ${user}`);
  // Past failures, as established (a schema may be gone), except a lost race, which is tried again.
  for (const statement of statements) {
    await client.query(statement).catch((err) => {
      if (isConcurrencyConflict(err)) throw err;
    });
  }
  await client.query(`DROP ROLE IF EXISTS ${user}`);
}

const SCHEMAS_SQL =
  'SELECT DISTINCT table_schema FROM information_schema.role_table_grants WHERE grantee = $1 ' +
  'UNION SELECT DISTINCT table_schema FROM information_schema.role_column_grants WHERE grantee = $1';
