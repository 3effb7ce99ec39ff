import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type mysql from 'mysql2/promise';
import type pg from 'pg';
import { request } from '../src/server/testing.js';
import { CrashableWard, sleep, until } from './crash-ward.testing.js';
import { MARIADB_ROOT, MARIADB_ROOT_PASSWORD, MariaDbServer } from './mariadb.js';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from './postgres.js';

/** A database under test, with a gate table the creation statements wait on while the test holds it. */
interface CrashTarget {
  connection: Record<string, unknown>;
  creation: string;
  /** Locks the gate; resolves with the function that opens it. */
  closeGate(): Promise<() => Promise<void>>;
  /** Whether a creation waits on the gate now. */
  isWaiting(): Promise<boolean>;
  /** Names of users starting with `crash-`. */
  crashUsers(): Promise<string[]>;
  stop(): Promise<void>;
}

async function postgresTarget(): Promise<CrashTarget> {
  const server = await PostgresServer.start();
  await server.query('CREATE TABLE gate (x int)');
  return {
    connection: {
      plugin_name: 'postgresql-database-plugin',
      connection_url: server.templatedUrl,
      username: PG_ROOT,
      password: PG_ROOT_PASSWORD,
    },
    creation: `CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}'; SELECT count(*) FROM gate;`,
    async closeGate() {
      const locker: pg.Client = await server.connect(PG_ROOT, PG_ROOT_PASSWORD);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE gate IN ACCESS EXCLUSIVE MODE');
      return async () => {
        await locker.query('COMMIT');
        await locker.end();
      };
    },
    isWaiting: async () =>
      (await server.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM gate%'"))
        .length === 1,
    crashUsers: async () =>
      (await server.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname LIKE 'crash-%'")).map(
        (r) => r.rolname,
      ),
    stop: () => server.stop(),
  };
}

async function mariadbTarget(): Promise<CrashTarget> {
  const server = await MariaDbServer.start();
  await server.query('CREATE DATABASE app');
  await server.query('CREATE TABLE app.gate (x int)');
  return {
    connection: {
      plugin_name: 'mysql-database-plugin',
      connection_url: server.templatedUrl,
      username: MARIADB_ROOT,
      password: MARIADB_ROOT_PASSWORD,
    },
    // CREATE USER commits at once in MySQL: the user exists while the SELECT waits.
    creation: "CREATE USER '{{name}}'@'%' IDENTIFIED BY '{{password}}'; SELECT count(*) FROM app.gate;",
    async closeGate() {
      const locker: mysql.Connection = await server.connect(MARIADB_ROOT, MARIADB_ROOT_PASSWORD);
      await locker.query('LOCK TABLES app.gate WRITE');
      return async () => {
        await locker.query('UNLOCK TABLES');
        await locker.end();
      };
    },
    isWaiting: async () =>
      (
        await server.query(
          "SELECT 1 FROM information_schema.processlist WHERE state LIKE 'Waiting for table%' AND info LIKE '%FROM app.gate%'",
        )
      ).length === 1,
    crashUsers: async () =>
      (await server.query("SELECT User FROM mysql.user WHERE User LIKE 'crash-%'")).map((r) => String(r.User)),
    stop: () => server.stop(),
  };
}

/**
 * A real crash of bin/ward between the CREATE of a `creds` request and the record of its lease.
 * The creation waits on a table the test has locked until the engine's write-ahead record is
 * saved; then the test holds SQLite's write lock (so the lease cannot be stored), opens the
 * gate, and SIGKILLs the server once the user exists. After the restart no user may be left
 * that nothing would ever drop.
 */
for (const [name, makeTarget] of [
  ['PostgreSQL', postgresTarget],
  ['MariaDB', mariadbTarget],
] as const) {
  describe(`database creds (${name}): SIGKILL between CREATE and the lease record`, () => {
    let target: CrashTarget;
    let w: CrashableWard;

    before(async () => {
      target = await makeTarget();
      w = await CrashableWard.create('ward-db-crash-');
    });
    after(async () => {
      await w?.dispose();
      await target?.stop();
    });

    it('leaves no user behind after the restart', async () => {
      let url = await w.start();
      const { key, token } = await w.initialize(url);
      assert.equal((await request(url, 'POST', 'sys/mounts/db', { token, body: { type: 'database' } })).status, 204);
      const connection = {
        ...target.connection,
        allowed_roles: '*',
        username_template: 'crash-{{random 8 | lowercase}}',
      };
      assert.equal((await request(url, 'POST', 'db/config/db', { token, body: connection })).status, 204);
      const role = { db_name: 'db', creation_statements: target.creation };
      assert.equal((await request(url, 'POST', 'db/roles/crash', { token, body: role })).status, 204);

      const openGate = await target.closeGate();
      const db = new Database(w.dbPath, { timeout: 10_000 });
      const walRecords = db.prepare<[], string>("SELECT key FROM entries WHERE key LIKE '%wal/creds/%'").pluck();
      const leases = db.prepare<[], string>("SELECT key FROM entries WHERE key LIKE '%db/creds/crash/%'").pluck();
      const creds = request(url, 'GET', 'db/creds/crash', { token }).catch((err: Error) => err);
      let username = '';
      try {
        // The creation waits on the gate: its write-ahead record was saved before it began.
        await until('the creation waits on the gate', () => target.isWaiting(), 600);
        assert.ok(walRecords.get(), 'the write-ahead record is saved');
        // Ward's next write (the lease) now blocks on the lock; the creation may go on.
        db.exec('BEGIN EXCLUSIVE');
        await openGate();
        await until('the user exists', async () => (await target.crashUsers()).length === 1, 600);
        username = (await target.crashUsers())[0] ?? '';
        await sleep(300);
        assert.equal(await w.kill(), 'SIGKILL');
        assert.equal(leases.all().length, 0, 'killed before the lease was stored');
        assert.ok(walRecords.get(), 'the write-ahead record is still there');
      } finally {
        db.exec('ROLLBACK');
        db.close();
      }
      assert.ok((await creds) instanceof Error, 'the creds request died with the server');
      assert.deepEqual(await target.crashUsers(), [username], 'the crash left the user');

      url = await w.start();
      await request(url, 'PUT', 'sys/unseal', { body: { key } });
      await until('the left-over user is dropped', async () => (await target.crashUsers()).length === 0, 600);
      // The rollback drops the user first and deletes its write-ahead record after: wait for both.
      const check = new Database(w.dbPath, { readonly: true });
      try {
        const records = check.prepare("SELECT key FROM entries WHERE key LIKE '%wal/creds/%'");
        await until('the write-ahead record is deleted', async () => records.all().length === 0, 600);
      } finally {
        check.close();
      }
    });
  });
}
