import mysql from 'mysql2/promise';
import type { ConnectionTarget } from './connection-url.js';
import type { PoolLimits, SessionDeps, SqlSession } from './sql-session.js';

/** `text` as a quoted MySQL string literal. */
const quoteString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** A `mysql2` pool over one configured MySQL or MariaDB server. */
export function openMysql(target: ConnectionTarget, limits: PoolLimits, deps: SessionDeps): SqlSession {
  const tls = target.params.get('tls');
  const pool = mysql.createPool({
    host: target.socketPath ? undefined : target.host,
    port: target.socketPath ? undefined : target.port,
    socketPath: target.socketPath,
    user: target.user,
    password: target.password,
    database: target.database,
    connectionLimit: limits.maxOpen,
    maxIdle: limits.maxIdle,
    idleTimeout: 10_000,
    connectTimeout: 30_000,
    ...(tls === 'true' || tls === 'skip-verify' ? { ssl: { rejectUnauthorized: tls === 'true' } } : {}),
  });
  // mysql2 has no lifetime cap: a connection older than the config allows is ended when released.
  const bornMs = new WeakMap<object, number>();
  const connection = async () => {
    const conn = await pool.getConnection();
    if (!bornMs.has(conn.connection)) bornMs.set(conn.connection, deps.clock.now());
    return conn;
  };
  const release = (conn: mysql.PoolConnection) => {
    const now = deps.clock.now();
    const age = now - (bornMs.get(conn.connection) ?? now);
    if (limits.maxLifetimeSeconds > 0 && age > limits.maxLifetimeSeconds * 1000) conn.destroy();
    else conn.release();
  };
  return {
    async transaction(statements) {
      const conn = await connection();
      try {
        await conn.beginTransaction();
        // The text protocol: CREATE USER and GRANT cannot all be prepared.
        for (const statement of statements) await conn.query(statement);
        await conn.commit();
        release(conn);
      } catch (err) {
        await conn.rollback().catch(() => {});
        conn.destroy();
        throw err;
      }
    },
    async each(statements) {
      const failures: string[] = [];
      for (const statement of statements) {
        await pool.query(statement).catch((err: Error) => failures.push(err.message));
      }
      return failures;
    },
    async userExists(username) {
      const [rows] = await pool.query('SELECT 1 FROM mysql.user WHERE User = ?', [username]);
      return Array.isArray(rows) && rows.length > 0;
    },
    async dropUser(username) {
      const user = `${quoteString(username)}@'%'`;
      await pool.query(`REVOKE ALL PRIVILEGES, GRANT OPTION FROM ${user}`).catch(() => {});
      await pool.query(`DROP USER IF EXISTS ${user}`);
    },
    async ping() {
      const conn = await connection();
      try {
        await conn.ping();
      } finally {
        release(conn);
      }
    },
    close: () => pool.end(),
  };
}
