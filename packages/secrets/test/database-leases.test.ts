import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createLogger, FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from './postgres.js';

const CREATE = `CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{{name}}";`;

/** Connections the engine holds open to the database (its pools name themselves `ward`). */
async function engineConnections(pg: PostgresServer): Promise<number> {
  const rows = await pg.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'ward'",
  );
  return Number(rows[0]?.n);
}

/** Waits (up to 20 s: a loaded machine is slow to end backends) until the engine holds no connection. */
async function untilNoConnections(pg: PostgresServer): Promise<void> {
  for (let i = 0; i < 200 && (await engineConnections(pg)) > 0; i++) await new Promise((r) => setTimeout(r, 100));
}

describe('database credentials as secret leases of the core (PostgreSQL)', () => {
  let pg: PostgresServer;
  let clock: FakeClock;
  let t: TestServer;
  /** Warnings and errors of the server, shown when an assertion fails. */
  let log: string[] = [];
  before(async () => {
    pg = await PostgresServer.start();
    await pg.query('CREATE TABLE IF NOT EXISTS fruit (name text)');
  });
  after(() => pg?.stop());
  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    log = [];
    const logger = createLogger({ level: 'warn', sink: { write: (line) => log.push(line) } });
    t = await startTestServer({ clock, logger });
    assert.equal((await t.request('POST', 'sys/mounts/db', { body: { type: 'database' } })).status, 204);
    const config = {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      username: PG_ROOT,
      password: PG_ROOT_PASSWORD,
      allowed_roles: ['app'],
      max_open_connections: 8,
    };
    assert.equal((await t.request('POST', 'db/config/pg', { body: config })).status, 204);
    const role = { db_name: 'pg', creation_statements: CREATE, default_ttl: '10m', max_ttl: '1h' };
    assert.equal((await t.request('POST', 'db/roles/app', { body: role })).status, 204);
  });
  afterEach(() => t.stop());

  const expire = async (ms: number) => {
    clock.advance(ms);
    await t.server.core.expiration.settled();
  };

  it('issues a lease; renew extends it, revoke drops the user', async () => {
    const res = await t.request('GET', 'db/creds/app');
    assert.equal(res.status, 200);
    assert.equal(res.body.lease_duration, 600);
    assert.equal(res.body.renewable, true);
    assert.match(res.body.lease_id, /^db\/creds\/app\//);
    const { username, password } = res.body.data;
    assert.ok(await pg.canLogin(username, password));
    const renewed = await t.request('PUT', 'sys/leases/renew', {
      body: { lease_id: res.body.lease_id, increment: 1200 },
    });
    assert.equal(renewed.status, 200);
    assert.equal(renewed.body.lease_duration, 1200);
    const revoked = await t.request('PUT', 'sys/leases/revoke', { body: { lease_id: res.body.lease_id } });
    assert.equal(revoked.status, 204);
    assert.equal(await pg.canLogin(username, password), false);
    assert.equal(await pg.roleExists(username), false);
  });

  it('50 concurrent requests get 50 distinct users, all dropped when their leases expire', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.request('GET', 'db/creds/app')));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    const names = new Set(answers.map((a) => a.body.data.username));
    const leases = new Set(answers.map((a) => a.body.lease_id));
    assert.equal(names.size, 50);
    assert.equal(leases.size, 50);
    for (const a of answers.slice(0, 5)) assert.ok(await pg.canLogin(a.body.data.username, a.body.data.password));
    const live = async () =>
      (await pg.query<{ n: string }>('SELECT count(*) AS n FROM pg_roles WHERE rolname = ANY($1)', [[...names]]))[0]?.n;
    assert.equal(await live(), '50');
    await expire(601_000);
    assert.equal(await live(), '0', log.join('\n'));
    assert.equal(await pg.canLogin(answers[0]?.body.data.username, answers[0]?.body.data.password), false);
  });

  it('refuses a role the connection does not allow, and closes the pool on unmount', async () => {
    await t.request('POST', 'db/roles/other', { body: { db_name: 'pg', creation_statements: CREATE } });
    const refused = await t.request('GET', 'db/creds/other');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, ['"other" is not an allowed role']);
    const issued = await t.request('GET', 'db/creds/app');
    assert.equal(issued.status, 200);
    assert.ok((await engineConnections(pg)) > 0);
    assert.equal((await t.request('DELETE', 'sys/mounts/db')).status, 204);
    assert.equal(await pg.roleExists(issued.body.data.username), false, 'unmount revoked the lease');
    await untilNoConnections(pg);
    assert.equal(await engineConnections(pg), 0);
  });

  it('closes the pool when the config changes and when the server seals', async () => {
    assert.equal((await t.request('GET', 'db/creds/app')).status, 200);
    const before = await engineConnections(pg);
    assert.ok(before > 0);
    assert.equal((await t.request('POST', 'db/config/pg', { body: { max_open_connections: 2 } })).status, 204);
    await untilNoConnections(pg);
    assert.equal(await engineConnections(pg), 0, 'the old pool closed');
    assert.equal((await t.request('GET', 'db/creds/app')).status, 200);
    assert.ok((await engineConnections(pg)) > 0);
    assert.equal((await t.request('PUT', 'sys/seal')).status, 204);
    await untilNoConnections(pg);
    assert.equal(await engineConnections(pg), 0);
  });
});
