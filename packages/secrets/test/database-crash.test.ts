import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { request } from '../src/server/testing.js';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from './postgres.js';
import { startWard, type WardProcess } from './ward-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; fails after `tries` attempts 50 ms apart. */
async function until(what: string, check: () => Promise<boolean> | boolean, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`gave up waiting until ${what}`);
}

/**
 * A real crash of bin/ward between the CREATE ROLE of a `creds` request and the record of its
 * lease. The creation waits on a table the test has locked in PostgreSQL until the engine's
 * write-ahead record is saved; then the test holds SQLite's write lock (so the lease cannot be
 * stored), lets the creation commit, and SIGKILLs the server once the role exists. After the
 * restart no user may be left that nothing would ever drop.
 */
describe('database creds: SIGKILL between CREATE ROLE and the lease record', () => {
  let pg: PostgresServer;
  let dir: string;
  let config: string;
  let dbPath: string;
  let ward: WardProcess | undefined;

  const start = async () => {
    ward = startWard(['server', `-config=${config}`]);
    const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    return url as string;
  };

  before(async () => {
    pg = await PostgresServer.start();
    await pg.query('CREATE TABLE gate (x int)');
    dir = await mkdtemp(join(tmpdir(), 'ward-db-crash-'));
    config = join(dir, 'ward.hcl');
    dbPath = join(dir, 'data', 'ward.db');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${dbPath}"\n}\n\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await ward?.exited;
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves no user behind after the restart', async () => {
    let url = await start();
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    const [key] = init.body.keys;
    const token = init.body.root_token;
    await request(url, 'PUT', 'sys/unseal', { body: { key } });
    assert.equal((await request(url, 'POST', 'sys/mounts/db', { token, body: { type: 'database' } })).status, 204);
    const connection = {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      username: PG_ROOT,
      password: PG_ROOT_PASSWORD,
      allowed_roles: '*',
      username_template: 'crash-{{random 8 | lowercase}}',
    };
    assert.equal((await request(url, 'POST', 'db/config/pg', { token, body: connection })).status, 204);
    const role = {
      db_name: 'pg',
      creation_statements: `CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}'; SELECT count(*) FROM gate;`,
    };
    assert.equal((await request(url, 'POST', 'db/roles/crash', { token, body: role })).status, 204);
    const crashRoles = () => pg.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname LIKE 'crash-%'");

    // The creation will wait on the gate until the test opens it.
    const locker = await pg.connect(PG_ROOT, PG_ROOT_PASSWORD);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE gate IN ACCESS EXCLUSIVE MODE');
    const db = new Database(dbPath, { timeout: 10_000 });
    const walRecords = db.prepare<[], string>("SELECT key FROM entries WHERE key LIKE '%wal/creds/%'").pluck();
    const leases = db.prepare<[], string>("SELECT key FROM entries WHERE key LIKE '%db/creds/crash/%'").pluck();
    const creds = request(url, 'GET', 'db/creds/crash', { token }).catch((err: Error) => err);
    let username = '';
    try {
      // The creation waits on the gate: its write-ahead record was saved before it began.
      await until('the creation waits on the gate', async () => {
        const waiting = await pg.query(
          "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM gate%'",
        );
        return waiting.length === 1;
      });
      assert.ok(walRecords.get(), 'the write-ahead record is saved');
      // Ward's next write (the lease) now blocks on the lock; the creation may go on.
      db.exec('BEGIN EXCLUSIVE');
      await locker.query('COMMIT');
      await until('the role exists', async () => (await crashRoles()).length === 1);
      username = (await crashRoles())[0]?.rolname ?? '';
      await sleep(300);
      ward?.child.kill('SIGKILL');
      assert.equal(await ward?.exited, 'SIGKILL');
      assert.equal(leases.all().length, 0, 'killed before the lease was stored');
      assert.ok(walRecords.get(), 'the write-ahead record is still there');
    } finally {
      await locker.end();
      db.exec('ROLLBACK');
      db.close();
    }
    assert.ok((await creds) instanceof Error, 'the creds request died with the server');
    assert.ok(await pg.roleExists(username), 'the crash left the user');

    url = await start();
    await request(url, 'PUT', 'sys/unseal', { body: { key } });
    await until('the left-over user is dropped', async () => !(await pg.roleExists(username)));
    const check = new Database(dbPath, { readonly: true });
    try {
      assert.equal(check.prepare("SELECT key FROM entries WHERE key LIKE '%wal/creds/%'").all().length, 0);
    } finally {
      check.close();
    }
  });
});
