import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { FakeClock } from '@ward/base';
import { createDatabaseBackend } from '../src/engines/database/backend.js';
import { type TestBackend, testBackend } from '../src/framework/testing.js';
import { InvalidRequestError, UpstreamError } from '../src/logical/errors.js';
import { PG_ROOT, PostgresServer } from './postgres.js';

// Issue 33: the database engine's credential types and credential_config, static roles'
// rotation_window, skip_import_rotation and self-managed (rootless) passwords, against a real PostgreSQL.

const CREATE = [`CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}';`];

/** A CA certificate and its key (PEM), and a certificate that is no CA. */
async function testCa() {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const make = (isCa: boolean) =>
    x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: isCa ? '01' : '02',
      name: isCa ? 'CN=Test CA' : 'CN=Not a CA',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      keys,
      signingAlgorithm: alg,
      extensions: isCa ? [new x509.BasicConstraintsExtension(true, undefined, true)] : [],
    });
  const key = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { ca: (await make(true)).toString('pem'), notCa: (await make(false)).toString('pem'), key };
}

describe('database roles: credential types, rotation windows, import and self-managed rotation (PostgreSQL)', () => {
  let pg: PostgresServer;
  const backends: TestBackend[] = [];
  // Real time: PostgreSQL judges VALID UNTIL by its own clock.
  const clock = new FakeClock(Date.now());
  before(async () => {
    pg = await PostgresServer.start();
  });
  after(async () => {
    for (const b of backends) await b.backend.cleanup?.();
    await pg?.stop();
  });

  const setup = async (config: Record<string, unknown> = {}, at = clock) => {
    const b = await testBackend(createDatabaseBackend, {
      clock: at,
      passwordPolicies: new Map([['fixed', () => 'Fixed-Policy-Pw-1']]),
    });
    backends.push(b);
    await b.write('config/pg', { ...pg.rootConnection, allowed_roles: '*', ...config });
    return b;
  };
  const rotationTask = (b: TestBackend) => {
    const task = b.backend.periodic.find((t) => t.name === 'rotate-static-roles');
    assert.ok(task);
    return task;
  };

  it('checks credential_config for each credential type and issues only passwords', async () => {
    const b = await setup();
    await b.write('roles/pw', {
      db_name: 'pg',
      creation_statements: CREATE,
      credential_config: { password_policy: 'fixed' },
    });
    const creds = (await b.read('creds/pw'))?.secret?.data;
    assert.equal(creds?.password, 'Fixed-Policy-Pw-1', "the role's password policy comes before the connection's");
    assert.ok(await pg.canLogin(String(creds?.username), 'Fixed-Policy-Pw-1'));

    // The statements go as one query (BEGIN … COMMIT in one round trip): a trailing comment must not swallow the next.
    await b.write('roles/commented', {
      db_name: 'pg',
      creation_statements: [
        `${CREATE[0]} -- the user`,
        'GRANT CONNECT ON DATABASE postgres TO "{{name}}" -- and its right',
      ],
      revocation_statements: ['DROP ROLE "{{name}}" -- custom'],
    });
    const commented = (await b.read('creds/commented'))?.secret?.data;
    assert.ok(await pg.canLogin(String(commented?.username), String(commented?.password)));
    // A failing statement rolls the whole list back.
    await b.write('roles/half', {
      db_name: 'pg',
      creation_statements: [CREATE[0] as string, 'GRANT nothing TO nobody'],
    });
    await assert.rejects(b.read('creds/half'));
    assert.deepEqual(await pg.query("SELECT rolname FROM pg_roles WHERE rolname LIKE 'v-%half%'"), []);

    await b.write('roles/rsa', { db_name: 'pg', creation_statements: CREATE, credential_type: 'rsa_private_key' });
    const rsa = (await b.read('roles/rsa'))?.data;
    assert.equal(rsa?.credential_type, 'rsa_private_key');
    assert.deepEqual(rsa?.credential_config, { format: 'pkcs8', key_bits: '2048' });
    await assert.rejects(
      b.read('creds/rsa'),
      (err: Error) => err instanceof InvalidRequestError && /unsupported credential_type/.test(err.message),
    );
    for (const config of [{ key_bits: '1024' }, { format: 'pkcs1' }, { key_bits: 'many' }])
      await assert.rejects(
        b.write('roles/rsa2', { db_name: 'pg', credential_type: 'rsa_private_key', credential_config: config }),
        InvalidRequestError,
      );
    await assert.rejects(b.write('roles/x', { db_name: 'pg', credential_type: 'token' }), InvalidRequestError);

    const { ca, notCa, key } = await testCa();
    const cert = {
      common_name_template: '{{.RoleName}}-{{random 8}}',
      ca_cert: ca,
      ca_private_key: key,
      key_type: 'ec',
    };
    await b.write('roles/cert', { db_name: 'pg', credential_type: 'client_certificate', credential_config: cert });
    const shown = (await b.read('roles/cert'))?.data?.credential_config as Record<string, string>;
    assert.equal(shown.key_bits, '256');
    assert.equal(shown.signature_bits, '256');
    await assert.rejects(b.read('creds/cert'), InvalidRequestError);
    for (const broken of [
      { ...cert, ca_cert: notCa },
      { ...cert, ca_private_key: 'not a key' },
      { ...cert, common_name_template: '' },
      { ...cert, common_name_template: '{{.RoleName' },
      { ...cert, key_type: 'dsa' },
      { ...cert, key_type: 'rsa', key_bits: '1000' },
      { ...cert, signature_bits: '128' },
    ])
      await assert.rejects(
        b.write('roles/cert2', { db_name: 'pg', credential_type: 'client_certificate', credential_config: broken }),
        InvalidRequestError,
        JSON.stringify({ ...broken, ca_cert: undefined, ca_private_key: undefined }),
      );
  });

  it('skip_import_rotation keeps the password until the first rotation is due (the role’s, or the config’s default)', async () => {
    const b = await setup();
    await pg.query(`CREATE ROLE imported WITH LOGIN PASSWORD 'imported-0'`);
    await b.write('static-roles/imported', {
      db_name: 'pg',
      username: 'imported',
      rotation_period: '1h',
      skip_import_rotation: true,
    });
    assert.ok(await pg.canLogin('imported', 'imported-0'), 'not rotated on import');
    const before = (await b.read('static-creds/imported'))?.data;
    assert.equal(before?.password, '');
    assert.equal(before?.ttl, 3600);
    const updated = await b.write('static-roles/imported', { skip_import_rotation: true });
    assert.deepEqual(updated?.warnings, ['skip_import_rotation has no effect on updates']);
    clock.advance(3601_000);
    await rotationTask(b).run();
    const rotated = (await b.read('static-creds/imported'))?.data;
    assert.ok(await pg.canLogin('imported', String(rotated?.password)));
    assert.equal(await pg.canLogin('imported', 'imported-0'), false);

    const c = await setup({ skip_static_role_import_rotation: true });
    assert.equal((await c.read('config/pg'))?.data?.skip_static_role_import_rotation, true);
    await pg.query(`CREATE ROLE imported2 WITH LOGIN PASSWORD 'imported2-0'`);
    await c.write('static-roles/imported2', { db_name: 'pg', username: 'imported2', rotation_period: '1h' });
    assert.ok(await pg.canLogin('imported2', 'imported2-0'), 'the config’s default skips too');
  });

  it('rotates a scheduled role only within its rotation_window; a missed one waits for the next time', async () => {
    const noon = new FakeClock('2026-03-01T12:00:00Z');
    const b = await setup({}, noon);
    await pg.query(`CREATE ROLE windowed WITH LOGIN PASSWORD 'windowed-0'`);
    await b.write('static-roles/windowed', {
      db_name: 'pg',
      username: 'windowed',
      rotation_schedule: '0 0 * * *',
      rotation_window: '1h',
    });
    const first = (await b.read('static-creds/windowed'))?.data;
    assert.equal(first?.rotation_window, 3600);
    // The server was not running at midnight: at 02:00 the window (00:00–01:00) is over.
    noon.advance(14 * 3600_000);
    await rotationTask(b).run();
    const skipped = (await b.read('static-creds/windowed'))?.data;
    assert.equal(skipped?.password, first?.password, 'no rotation outside the window');
    assert.equal(skipped?.ttl, 22 * 3600, 'the next midnight');
    // 00:10 the next day: inside the window.
    noon.advance(22 * 3600_000 + 600_000);
    await rotationTask(b).run();
    const rotated = (await b.read('static-creds/windowed'))?.data;
    assert.notEqual(rotated?.password, first?.password);
    assert.ok(await pg.canLogin('windowed', String(rotated?.password)));
    await assert.rejects(
      b.write('static-roles/p', { db_name: 'pg', username: 'windowed', rotation_period: '1h', rotation_window: '1h' }),
      InvalidRequestError,
    );
  });

  it('a self-managed connection has no root user: each static role’s user rotates its own password', async () => {
    await pg.query(`CREATE ROLE selfie WITH LOGIN PASSWORD 'selfie-0'`);
    await pg.query(`CREATE ROLE other WITH LOGIN PASSWORD 'other-0'`);
    const b = await testBackend(createDatabaseBackend, { clock });
    backends.push(b);
    await assert.rejects(
      b.write('config/self', {
        plugin_name: 'postgresql-database-plugin',
        connection_url: pg.templatedUrl,
        username: PG_ROOT,
        self_managed: true,
      }),
      InvalidRequestError,
    );
    await b.write('config/self', {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      self_managed: true,
      allowed_roles: '*',
    });
    assert.equal((await b.read('config/self'))?.data?.self_managed, true);
    await assert.rejects(
      b.write('static-roles/selfie', { db_name: 'self', username: 'selfie', rotation_period: '1h' }),
      InvalidRequestError,
      'the user’s password is needed',
    );
    await assert.rejects(
      b.write('static-roles/other', {
        db_name: 'self',
        username: 'other',
        rotation_period: '1h',
        self_managed_password: 'wrong',
      }),
      UpstreamError,
      'a password the database refuses',
    );
    await assert.rejects(b.read('static-roles/other'), 'not saved');
    await b.write('static-roles/selfie', {
      db_name: 'self',
      username: 'selfie',
      rotation_period: '1h',
      self_managed_password: 'selfie-0',
    });
    const first = (await b.read('static-creds/selfie'))?.data;
    assert.equal(await pg.canLogin('selfie', 'selfie-0'), false);
    assert.ok(await pg.canLogin('selfie', String(first?.password)));
    await b.write('rotate-role/selfie', {});
    const second = (await b.read('static-creds/selfie'))?.data;
    assert.notEqual(second?.password, first?.password);
    assert.ok(await pg.canLogin('selfie', String(second?.password)));
    // Nothing on this connection can use a root user.
    await b.write('roles/dyn', { db_name: 'self', creation_statements: CREATE });
    await assert.rejects(b.read('creds/dyn'), InvalidRequestError);
    const plain = await setup();
    await assert.rejects(
      plain.write('static-roles/x', {
        db_name: 'pg',
        username: 'other',
        rotation_period: '1h',
        self_managed_password: 'other-0',
      }),
      InvalidRequestError,
    );
  });
});
