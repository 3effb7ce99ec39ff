import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { createDatabaseBackend } from '../src/engines/database/backend.js';
import { type TestBackend, testBackend } from '../src/framework/testing.js';
import { InvalidRequestError } from '../src/logical/errors.js';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from './postgres.js';

const CREATE = [
  `CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}';`,
  `GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{{name}}";`,
];

describe('database engine against a real PostgreSQL', () => {
  let pg: PostgresServer;
  const backends: TestBackend[] = [];
  before(async () => {
    pg = await PostgresServer.start();
    await pg.query('CREATE TABLE fruit (name text)');
    await pg.query("INSERT INTO fruit VALUES ('apple')");
    await pg.query('CREATE TABLE secret_stuff (x int)');
    await pg.query('REVOKE ALL ON secret_stuff FROM PUBLIC');
  });
  after(async () => {
    for (const b of backends) await b.backend.cleanup?.();
    await pg?.stop();
  });

  const setup = async (config: Record<string, unknown> = {}, clock = new FakeClock(Date.now())) => {
    const b = await testBackend(createDatabaseBackend, { clock });
    backends.push(b);
    await b.write('config/pg', { ...pg.rootConnection, allowed_roles: '*', ...config });
    return b;
  };

  it('keeps the connection without its password and refuses a connection that does not work', async () => {
    const b = await setup({ allowed_roles: 'ro,other' });
    const read = (await b.read('config/pg'))?.data;
    assert.equal(read?.plugin_name, 'postgresql-database-plugin');
    assert.deepEqual(read?.allowed_roles, ['ro', 'other']);
    assert.equal((read?.connection_details as Record<string, unknown>).username, PG_ROOT);
    assert.equal((read?.connection_details as Record<string, unknown>).max_open_connections, 4);
    assert.ok(!JSON.stringify(read).includes(PG_ROOT_PASSWORD), 'the password is never returned');
    assert.deepEqual((await b.list('config/'))?.data?.keys, ['pg']);
    await assert.rejects(
      b.write('config/bad', {
        plugin_name: 'postgresql-database-plugin',
        connection_url: pg.templatedUrl,
        username: PG_ROOT,
        password: 'wrong',
      }),
      InvalidRequestError,
    );
    await assert.rejects(b.write('config/x', { plugin_name: 'nope', connection_url: 'x' }), InvalidRequestError);
    // Without verification the wrong password is saved; using it fails.
    await b.write('config/bad', {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      username: PG_ROOT,
      password: 'wrong',
      verify_connection: false,
      allowed_roles: '*',
    });
    await b.write('roles/bad', { db_name: 'bad', creation_statements: CREATE });
    await assert.rejects(b.read('creds/bad'), { code: 'upstream_failed' });
    // A role the connection does not allow.
    await b.write('roles/third', { db_name: 'pg', creation_statements: CREATE });
    await assert.rejects(b.read('creds/third'), InvalidRequestError);
  });

  it('issues users that log in and can do what the statements grant; revoking drops them', async () => {
    const b = await setup();
    await b.write('roles/ro', { db_name: 'pg', creation_statements: CREATE, default_ttl: '1h', max_ttl: '2h' });
    const role = (await b.read('roles/ro'))?.data;
    assert.deepEqual(role?.creation_statements, CREATE);
    assert.equal(role?.default_ttl, 3600);
    assert.equal(role?.credential_type, 'password');
    assert.deepEqual(role?.revocation_statements, []);

    const secret = (await b.read('creds/ro'))?.secret;
    assert.equal(secret?.ttlSeconds, 3600);
    const username = String(secret?.data.username);
    const password = String(secret?.data.password);
    assert.match(username, /^v-root-ro-[A-Za-z0-9]{20}-\d{10}$/);
    assert.match(password, /^[A-Za-z0-9-]{20}$/);
    const client = await pg.connect(username, password);
    assert.deepEqual((await client.query('SELECT name FROM fruit')).rows, [{ name: 'apple' }]);
    await assert.rejects(client.query('INSERT INTO fruit VALUES ($1)', ['pear']), /permission denied/);
    await client.end();
    assert.equal(
      await b.storage.list('wal/creds/').then((k) => k.length),
      1,
      'the write-ahead record waits for the lease',
    );
    await b.backend.secretLeased({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
    assert.deepEqual(await b.storage.list('wal/creds/'), []);

    // Renewal moves VALID UNTIL.
    const before = (
      await pg.query<{ v: Date }>('SELECT rolvaliduntil AS v FROM pg_roles WHERE rolname = $1', [username])
    )[0]?.v;
    const renewed = await b.backend.renewSecret(
      { leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} },
      7000,
    );
    assert.equal(renewed?.ttlSeconds, 7000);
    const after = (
      await pg.query<{ v: Date }>('SELECT rolvaliduntil AS v FROM pg_roles WHERE rolname = $1', [username])
    )[0]?.v;
    assert.ok(
      before && after && after.getTime() - before.getTime() > 3000_000,
      `VALID UNTIL moved: ${before} -> ${after}`,
    );

    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
    assert.equal(await pg.roleExists(username), false);
    assert.equal(await pg.canLogin(username, password), false);
    // Idempotent: a revocation run again after a crash still succeeds.
    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
  });

  it('runs custom revocation and rollback statements', async () => {
    const b = await setup();
    await b.write('roles/custom', {
      db_name: 'pg',
      creation_statements: `${CREATE.join(' ')} GRANT SELECT ON no_such_table TO "{{name}}";`,
      rollback_statements: 'SELECT 1',
    });
    await assert.rejects(b.read('creds/custom'), { code: 'upstream_failed' });
    assert.deepEqual(await b.storage.list('wal/creds/'), [], 'a failed creation leaves no write-ahead record');
    assert.deepEqual(await pg.query("SELECT rolname FROM pg_roles WHERE rolname LIKE 'v-root-custom%'"), []);

    await b.write('roles/custom', {
      creation_statements: CREATE,
      revocation_statements: 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "{{name}}"; DROP ROLE "{{name}}";',
    });
    const secret = (await b.read('creds/custom'))?.secret;
    assert.ok(await pg.roleExists(String(secret?.data.username)));
    await b.backend.revokeSecret({ leaseId: 'l', type: 'creds', internal: secret?.internal ?? {} });
    assert.equal(await pg.roleExists(String(secret?.data.username)), false);
  });

  it('rotates the root password: the old one no longer logs in and the engine goes on working', async () => {
    const b = await setup();
    await pg.query(`CREATE ROLE rotor WITH SUPERUSER LOGIN PASSWORD 'rotor-initial'`);
    await b.write('config/rotor', {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      username: 'rotor',
      password: 'rotor-initial',
      allowed_roles: '*',
    });
    await b.write('rotate-root/rotor', {});
    assert.equal(await pg.canLogin('rotor', 'rotor-initial'), false);
    await b.write('roles/after', { db_name: 'rotor', creation_statements: CREATE });
    const secret = (await b.read('creds/after'))?.secret;
    assert.ok(await pg.canLogin(String(secret?.data.username), String(secret?.data.password)));
    const stored = JSON.parse(Buffer.from((await b.storage.get('config/rotor')) ?? []).toString());
    assert.equal(await pg.canLogin('rotor', stored.password), true);
    await assert.rejects(b.write('rotate-root/pg-literal', {}), InvalidRequestError);
    await b.write('reset/rotor', {});
    assert.deepEqual((await b.write('reload/postgresql-database-plugin', {}))?.data, {
      connections: ['pg', 'rotor'],
      count: 2,
    });
  });

  it('static roles: rotated at creation, on rotate-role and on the schedule', async () => {
    const clock = new FakeClock(Date.now());
    const b = await setup({}, clock);
    await pg.query(`CREATE ROLE app WITH LOGIN PASSWORD 'app-initial'`);
    await assert.rejects(
      b.write('static-roles/app', { db_name: 'pg', username: 'app', rotation_period: 3 }),
      InvalidRequestError,
    );
    await assert.rejects(
      b.write('static-roles/app', {
        db_name: 'pg',
        username: 'app',
        rotation_period: 60,
        rotation_schedule: '* * * * *',
      }),
      InvalidRequestError,
    );
    await b.write('static-roles/app', { db_name: 'pg', username: 'app', rotation_period: '1h' });
    assert.equal(await pg.canLogin('app', 'app-initial'), false);
    const first = (await b.read('static-creds/app'))?.data;
    assert.equal(first?.username, 'app');
    assert.equal(first?.rotation_period, 3600);
    assert.equal(first?.ttl, 3600);
    assert.ok(await pg.canLogin('app', String(first?.password)));
    const role = (await b.read('static-roles/app'))?.data;
    assert.equal(role?.username, 'app');
    assert.equal(typeof role?.last_vault_rotation, 'string');

    await b.write('rotate-role/app', {});
    const second = (await b.read('static-creds/app'))?.data;
    assert.notEqual(second?.password, first?.password);
    assert.equal(await pg.canLogin('app', String(first?.password)), false);
    assert.ok(await pg.canLogin('app', String(second?.password)));

    // The scheduler's pass rotates a due role.
    clock.advance(3601_000);
    const task = b.backend.periodic.find((t) => t.name === 'rotate-static-roles');
    await task?.run();
    const third = (await b.read('static-creds/app'))?.data;
    assert.notEqual(third?.password, second?.password);
    assert.ok(await pg.canLogin('app', String(third?.password)));

    await b.write('static-roles/app', { rotation_schedule: '0 0 * * *' });
    const scheduled = (await b.read('static-roles/app'))?.data;
    assert.equal(scheduled?.rotation_schedule, '0 0 * * *');
    assert.equal(scheduled?.rotation_period, undefined);
    await assert.rejects(b.write('static-roles/app', { username: 'other' }), InvalidRequestError);
  });
});
