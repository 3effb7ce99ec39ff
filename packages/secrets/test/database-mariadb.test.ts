import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { createDatabaseBackend } from '../src/engines/database/backend.js';
import { type TestBackend, testBackend } from '../src/framework/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { MARIADB_ROOT, MARIADB_ROOT_PASSWORD, MariaDbServer } from './mariadb.js';

const CREATE = ["CREATE USER '{{name}}'@'%' IDENTIFIED BY '{{password}}';", "GRANT SELECT ON app.* TO '{{name}}'@'%';"];

describe('database engine against a real MariaDB', () => {
  let db: MariaDbServer;
  const backends: TestBackend[] = [];
  before(async () => {
    db = await MariaDbServer.start();
    await db.query('CREATE DATABASE app');
    await db.query('CREATE TABLE app.fruit (name varchar(20))');
    await db.query("INSERT INTO app.fruit VALUES ('apple')");
  });
  after(async () => {
    for (const b of backends) await b.backend.cleanup?.();
    await db?.stop();
  });

  const setup = async (plugin = 'mysql-database-plugin') => {
    const b = await testBackend(createDatabaseBackend, { clock: new FakeClock(Date.now()) });
    backends.push(b);
    await b.write('config/maria', {
      plugin_name: plugin,
      connection_url: db.templatedUrl,
      username: MARIADB_ROOT,
      password: MARIADB_ROOT_PASSWORD,
      allowed_roles: '*',
    });
    return b;
  };

  it('issues users that log in and can do what the statements grant; revoking drops them', async () => {
    const b = await setup();
    await b.write('roles/ro', { db_name: 'maria', creation_statements: CREATE, default_ttl: '1h' });
    const secret = (await b.read('creds/ro'))?.secret;
    const username = String(secret?.data.username);
    const password = String(secret?.data.password);
    assert.ok(username.length <= 32);
    assert.match(username, /^v-root-ro-[A-Za-z0-9]{20}-\d/);
    const conn = await db.connect(username, password, 'app');
    const [rows] = await conn.query('SELECT name FROM fruit');
    assert.deepEqual(rows, [{ name: 'apple' }]);
    await assert.rejects(conn.query("INSERT INTO fruit VALUES ('pear')"), /denied/);
    await conn.end();
    // MySQL has no expiry to move: renewal only extends the lease.
    const renewed = await b.backend.renewSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} }, 600);
    assert.equal(renewed?.ttlSeconds, 600);
    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
    assert.equal(await db.userExists(username), false);
    assert.equal(await db.canLogin(username, password), false);
    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
  });

  it('legacy plugins keep names to 16 characters; custom revocation runs', async () => {
    const b = await setup('mysql-legacy-database-plugin');
    await b.write('roles/legacy', {
      db_name: 'maria',
      creation_statements: CREATE,
      revocation_statements: "DROP USER '{{name}}'@'%'",
    });
    const secret = (await b.read('creds/legacy'))?.secret;
    const username = String(secret?.data.username);
    assert.ok(username.length <= 16, username);
    assert.ok(await db.canLogin(username, String(secret?.data.password)));
    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
    assert.equal(await db.userExists(username), false);
  });

  it('rotates the root password and static roles', async () => {
    const b = await setup();
    await db.query("CREATE USER 'rotor'@'%' IDENTIFIED BY 'rotor-initial'");
    await db.query("GRANT ALL PRIVILEGES ON *.* TO 'rotor'@'%' WITH GRANT OPTION");
    await b.write('config/rotor', {
      plugin_name: 'mysql-database-plugin',
      connection_url: db.templatedUrl,
      username: 'rotor',
      password: 'rotor-initial',
      allowed_roles: '*',
    });
    await b.write('rotate-root/rotor', {});
    assert.equal(await db.canLogin('rotor', 'rotor-initial'), false);
    await db.query("CREATE USER 'app'@'%' IDENTIFIED BY 'app-initial'");
    await b.write('static-roles/app', { db_name: 'rotor', username: 'app', rotation_period: '1h' });
    assert.equal(await db.canLogin('app', 'app-initial'), false);
    const first = String((await b.read('static-creds/app'))?.data?.password);
    assert.ok(await db.canLogin('app', first));
    await b.write('rotate-role/app', {});
    const second = String((await b.read('static-creds/app'))?.data?.password);
    assert.equal(await db.canLogin('app', first), false);
    assert.ok(await db.canLogin('app', second));
  });

  describe('as secret leases of the core', () => {
    let clock: FakeClock;
    let t: TestServer;
    beforeEach(async () => {
      clock = new FakeClock(Date.now());
      t = await startTestServer({ clock });
      await t.request('POST', 'sys/mounts/db', { body: { type: 'database' } });
      const config = {
        plugin_name: 'mysql-database-plugin',
        connection_url: db.templatedUrl,
        username: MARIADB_ROOT,
        password: MARIADB_ROOT_PASSWORD,
        allowed_roles: 'app',
      };
      assert.equal((await t.request('POST', 'db/config/maria', { body: config })).status, 204);
      const role = { db_name: 'maria', creation_statements: CREATE, default_ttl: '5m' };
      assert.equal((await t.request('POST', 'db/roles/app', { body: role })).status, 204);
    });
    afterEach(() => t.stop());

    it('revoke and expiry drop the users; 50 concurrent requests are distinct', async () => {
      const one = await t.request('GET', 'db/creds/app');
      assert.equal(one.status, 200);
      assert.ok(await db.canLogin(one.body.data.username, one.body.data.password));
      await t.request('PUT', 'sys/leases/revoke', { body: { lease_id: one.body.lease_id } });
      assert.equal(await db.canLogin(one.body.data.username, one.body.data.password), false);

      const answers = await Promise.all(Array.from({ length: 50 }, () => t.request('GET', 'db/creds/app')));
      for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
      const names = [...new Set(answers.map((a) => a.body.data.username))];
      assert.equal(names.length, 50);
      const live = async () => (await db.query('SELECT User FROM mysql.user WHERE User IN (?)', [names])).length;
      assert.equal(await live(), 50);
      clock.advance(301_000);
      await t.server.core.expiration.settled();
      assert.equal(await live(), 0);
    });
  });
});
