import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { createLdapBackend } from '../src/engines/ldap/backend.js';
import { testBackend } from '../src/framework/testing.js';
import { InvalidRequestError, NotFoundError, UpstreamError } from '../src/logical/errors.js';
import { InmemStorage } from '../src/storage/index.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, startSlapd } from './slapd.js';

describe('ldap engine against slapd: config, rotate-root, static roles', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd();
  });
  after(() => slapd.stop());

  const configure = async (b: Awaited<ReturnType<typeof testBackend>>, extra: Record<string, unknown> = {}) =>
    b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url, ...extra });

  it('validates the config, applies defaults and never returns the bind password', async () => {
    const b = await testBackend(createLdapBackend);
    await assert.rejects(configure(b, { length: 20, password_policy: 'p' }), InvalidRequestError);
    await assert.rejects(configure(b, { url: 'http://x' }), InvalidRequestError);
    await assert.rejects(configure(b, { schema: 'novell' }), InvalidRequestError);
    await assert.rejects(configure(b, { certificate: 'not a pem' }), InvalidRequestError);
    await assert.rejects(configure(b, { client_tls_cert: 'x' }), InvalidRequestError);
    await assert.rejects(b.read('config'), NotFoundError);

    await configure(b, { schema: 'openldap', url: `${slapd.url.toUpperCase()}, ldap://127.0.0.2` });
    const { data } = (await b.read('config')) ?? {};
    assert.equal(data?.schema, 'ldapdir');
    assert.equal(data?.url, `${slapd.url}, ldap://127.0.0.2`.replace(' ', ''));
    assert.equal(data?.userattr, 'cn');
    assert.equal(data?.connection_timeout, 30);
    assert.equal(data?.request_timeout, 90);
    assert.equal(data?.length, 64);
    assert.equal(data?.tls_min_version, 'tls12');
    assert.equal(data?.starttls, false);
    assert.ok(!('bindpass' in (data ?? {})));

    // An update changes only what it sends; a policy on a config with a length is refused together only.
    await b.write('config', { request_timeout: '2m' });
    assert.equal((await b.read('config'))?.data?.request_timeout, 120);
    assert.equal((await b.read('config'))?.data?.binddn, ENGINE_DN);
  });

  it('tries the URLs in order: an unreachable first URL is skipped', async () => {
    const b = await testBackend(createLdapBackend);
    const dn = await slapd.addUser('urls', 'initial');
    // Port 1 on loopback refuses at once.
    await configure(b, { url: `ldap://127.0.0.1:1,${slapd.url}`, connection_timeout: 2 });
    await b.write('static-role/urls', { dn, username: 'urls', rotation_period: '1h' });
    const cred = (await b.read('static-cred/urls'))?.data;
    assert.ok(await slapd.canBind(dn, String(cred?.password)));
  });

  it('credential_type: password by default, phrase sets racfPassPhrase under the racf schema', async () => {
    const b = await testBackend(createLdapBackend);
    await assert.rejects(configure(b, { credential_type: 'pin' }), InvalidRequestError);
    await configure(b);
    assert.equal((await b.read('config'))?.data?.credential_type, 'password');
    await b.write('config', { schema: 'racf', credential_type: 'phrase', length: 20 });
    assert.equal((await b.read('config'))?.data?.credential_type, 'phrase');
    // slapd has no RACF schema: its refusal names the attribute the engine sent.
    const dn = await slapd.addUser('racf', 'racf-initial');
    await assert.rejects(
      b.write('static-role/racf', { dn, username: 'racf', rotation_period: 60 }),
      (err: Error) => err instanceof UpstreamError && /racfPassPhrase/.test(err.message),
    );
    await b.write('config', { credential_type: 'password' });
    await assert.rejects(
      b.write('static-role/racf', { dn, username: 'racf', rotation_period: 60 }),
      (err: Error) => /racfPassword/.test(err.message) && !/racfPassPhrase/.test(err.message),
    );
  });

  it('a static role without dn finds its entry by userattr = username under userdn (filter-escaped)', async () => {
    const b = await testBackend(createLdapBackend);
    await configure(b, { userdn: 'ou=users,dc=example,dc=org' });
    const dn = await slapd.addUser('dave', 'dave-initial');
    await b.write('static-role/dave', { username: 'dave', rotation_period: 60 });
    assert.ok(await slapd.canBind(dn, String((await b.read('static-cred/dave'))?.data?.password)));
    // `*` would match every entry if it reached the filter unescaped: here it matches none.
    await assert.rejects(
      b.write('static-role/star', { username: '*', rotation_period: 60 }),
      /expected one matching entry, but received 0/,
    );
  });

  it('rotate-root: the new password binds, the old one no longer does, and it is never shown', async () => {
    const b = await testBackend(createLdapBackend);
    const dn = await slapd.addUser('rootrot', 'first-password');
    await b.write('config', { binddn: dn, bindpass: 'first-password', url: slapd.url, length: 20 });
    // This account may change only its own password, which is all rotate-root needs.
    assert.equal(await b.write('rotate-root'), undefined);
    assert.equal(await slapd.canBind(dn, 'first-password'), false);
    const stored = (await b.storage.get('config')) as Uint8Array;
    const newPassword: string = JSON.parse(Buffer.from(stored).toString()).bindpass;
    assert.match(newPassword, /^[A-Za-z0-9]{20}$/);
    assert.ok(await slapd.canBind(dn, newPassword));
    assert.ok(!JSON.stringify(await b.read('config')).includes(newPassword));
    // Requests keep working after the rotation (they bind with the new password).
    await b.write('rotate-root');
    assert.equal(await slapd.canBind(dn, newPassword), false);
  });

  it('static role: rotated at create, on schedule with the fake clock, and by rotate-role', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await testBackend(createLdapBackend, { clock });
    await configure(b);
    const dn = await slapd.addUser('alice', 'alice-initial');

    await assert.rejects(b.write('static-role/alice', { dn, username: 'alice', rotation_period: 4 }), /5 seconds/);
    await assert.rejects(b.write('static-role/alice', { dn, rotation_period: 60 }), InvalidRequestError);
    await b.write('static-role/Alice', { dn, username: 'alice', rotation_period: '1m' });
    assert.equal(await slapd.canBind(dn, 'alice-initial'), false);
    const first = (await b.read('static-cred/alice'))?.data ?? {};
    assert.ok(await slapd.canBind(dn, String(first.password)));
    assert.equal(first.ttl, 60);
    assert.equal(first.last_service_rotation, '2024-01-01T00:00:00.000Z');
    assert.deepEqual((await b.list('static-role'))?.data?.keys, ['alice']);
    const read = (await b.read('static-role/alice'))?.data;
    assert.equal(read?.rotation_period, 60);
    assert.equal(read?.last_service_rotation, '2024-01-01T00:00:00.000Z');

    const [task] = b.backend.periodic;
    clock.advance(30_000);
    await task?.run();
    assert.equal((await b.read('static-cred/alice'))?.data?.password, first.password);
    clock.advance(30_000);
    await task?.run();
    const second = (await b.read('static-cred/alice'))?.data ?? {};
    assert.notEqual(second.password, first.password);
    assert.equal(second.last_password, first.password);
    assert.ok(await slapd.canBind(dn, String(second.password)));

    clock.advance(10_000);
    await b.write('rotate-role/alice');
    const third = (await b.read('static-cred/alice'))?.data ?? {};
    assert.ok(await slapd.canBind(dn, String(third.password)));
    assert.equal(third.ttl, 60, 'a manual rotation moves the next one to now + rotation_period');

    await assert.rejects(b.write('static-role/alice', { username: 'bob' }), /cannot update static account username/);
    await assert.rejects(
      b.write('static-role/other', { dn, username: 'alice', rotation_period: 60 }),
      /already managed/,
    );
    await assert.rejects(b.read('static-cred/nobody'), /unknown role: nobody/);
    await assert.rejects(b.write('rotate-role/nobody'), /role doesn't exist: nobody/);
  });

  it('a static role with a hierarchical name is rotated on schedule and refuses a username used at another level', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await testBackend(createLdapBackend, { clock });
    await configure(b);
    const dn = await slapd.addUser('nested', 'nested-initial');
    await b.write('static-role/ops/db/nested', { dn, username: 'nested', rotation_period: 60 });
    await assert.rejects(
      b.write('static-role/other', { dn, username: 'nested', rotation_period: 60 }),
      /"nested" is already managed/,
    );
    const first = (await b.read('static-cred/ops/db/nested'))?.data?.password;
    clock.advance(60_000);
    await b.backend.periodic[0]?.run();
    const second = (await b.read('static-cred/ops/db/nested'))?.data?.password;
    assert.notEqual(second, first);
    assert.ok(await slapd.canBind(dn, String(second)));
  });

  it('skip_import_rotation keeps the password until the scheduled rotation, across a restart', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await testBackend(createLdapBackend, { clock });
    await configure(b);
    const dn = await slapd.addUser('skipper', 'skipper-initial');
    await b.write('static-role/skipper', { dn, username: 'skipper', rotation_period: 60, skip_import_rotation: true });
    assert.equal((await b.read('static-cred/skipper'))?.data?.password, '');

    // A new engine over the same storage (a restart) runs its schedule: nothing is due yet.
    const restarted = (await testBackend(createLdapBackend, { clock, storage: b.storage })).backend;
    clock.advance(5_000);
    await restarted.periodic[0]?.run();
    assert.ok(await slapd.canBind(dn, 'skipper-initial'));
    clock.advance(60_000);
    await restarted.periodic[0]?.run();
    assert.equal(await slapd.canBind(dn, 'skipper-initial'), false);
  });

  it('a failed rotation is visible on the role and retried later; an unreachable directory is a 502', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await testBackend(createLdapBackend, { clock });
    await configure(b);
    await assert.rejects(
      b.write('static-role/ghost', {
        dn: 'cn=ghost,ou=users,dc=example,dc=org',
        username: 'ghost',
        rotation_period: 60,
      }),
      UpstreamError,
    );
    await assert.rejects(b.read('static-role/ghost'), NotFoundError);

    const dn = await slapd.addUser('flaky', 'flaky-initial');
    await b.write('static-role/flaky', { dn, username: 'flaky', rotation_period: 60 });
    await b.write('config', { url: 'ldap://127.0.0.1:1' });
    clock.advance(60_000);
    await b.backend.periodic[0]?.run();
    assert.match(String((await b.read('static-role/flaky'))?.data?.last_rotation_error), /failed to connect/);
    await assert.rejects(b.write('rotate-role/flaky'), UpstreamError);

    await b.write('config', { url: slapd.url });
    clock.advance(60_000);
    await b.backend.periodic[0]?.run();
    assert.equal((await b.read('static-role/flaky'))?.data?.last_rotation_error, undefined);
    assert.ok(await slapd.canBind(dn, String((await b.read('static-cred/flaky'))?.data?.password)));
  });

  it('a crash between the directory change and the save keeps the new password (write-ahead record)', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const storage = new CrashOnRoleSave();
    const b = await testBackend(createLdapBackend, { clock, storage });
    await configure(b);
    const dn = await slapd.addUser('crashy', 'crashy-initial');
    await b.write('static-role/crashy', { dn, username: 'crashy', rotation_period: 60 });
    const old = String((await b.read('static-cred/crashy'))?.data?.password);

    // The process "dies" at the save of the rotated role: the directory already has the new password.
    storage.isDying = true;
    clock.advance(60_000);
    await b.backend.periodic[0]?.run();
    storage.isDying = false;
    const wal = JSON.parse(Buffer.from((await storage.get('static-wal/crashy')) as Uint8Array).toString());
    assert.equal(await slapd.canBind(dn, old), false, 'the directory changed');
    assert.ok(await slapd.canBind(dn, wal.password), 'to the password of the write-ahead record');
    assert.equal((await b.read('static-cred/crashy'))?.data?.password, old, 'the save did not happen');

    // After the restart the first pass of the schedule finishes the rotation with the recorded password.
    const restarted = await testBackend(createLdapBackend, { clock, storage });
    await restarted.backend.periodic[0]?.run();
    assert.equal((await restarted.read('static-cred/crashy'))?.data?.password, wal.password);
    assert.ok(await slapd.canBind(dn, wal.password));
    assert.deepEqual(await storage.list('static-wal/'), []);
  });
});

/** Storage whose saves of static roles fail while `isDying`, as if the process died right there. */
class CrashOnRoleSave extends InmemStorage {
  isDying = false;
  override async put(key: string, value: Uint8Array): Promise<void> {
    if (this.isDying && key.startsWith('static-role/')) throw new Error('crashed');
    return super.put(key, value);
  }
}

describe('ldap engine over TLS: ldaps:// and StartTLS, verified against the configured CA', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd({ tls: true });
  });
  after(() => slapd.stop());

  const rotateOnce = async (config: Record<string, unknown>) => {
    const b = await testBackend(createLdapBackend);
    await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, ...config });
    const dn = await slapd.addUser(`tls${Math.floor(Math.random() * 1e9)}`, 'tls-initial');
    await b.write('static-role/t', { dn, username: dn, rotation_period: 60 });
    return slapd.canBind(dn, String((await b.read('static-cred/t'))?.data?.password));
  };

  it('works over ldaps:// and StartTLS with the CA, and refuses a server the CA did not sign', async () => {
    assert.ok(await rotateOnce({ url: slapd.ldapsUrl, certificate: slapd.caPem }));
    assert.ok(await rotateOnce({ url: slapd.url, starttls: true, certificate: slapd.caPem }));
    await assert.rejects(rotateOnce({ url: slapd.ldapsUrl }), UpstreamError, 'no CA: the test CA is not trusted');
    await assert.rejects(rotateOnce({ url: slapd.url, starttls: true }), UpstreamError);
    assert.ok(await rotateOnce({ url: slapd.ldapsUrl, insecure_tls: true }));
  });
});

describe('rotate-root while other requests bind (a directory of its own: the engine account changes)', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd();
  });
  after(() => slapd.stop());

  it('requests running during rotate-root keep working, and so do those after a crash before its save', async () => {
    const storage = new CrashOnConfigSave();
    const b = await testBackend(createLdapBackend, { storage });
    await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    const names = ['r1', 'r2', 'r3', 'r4'];
    for (const name of names) {
      const dn = await slapd.addUser(name, `${name}-initial`);
      await b.write(`static-role/${name}`, { dn, username: name, rotation_period: 60 });
    }
    // Each request read the config before the rotation changed the directory's password.
    const rotations = names.flatMap((name) => [1, 2, 3].map(() => b.write(`rotate-role/${name}`)));
    await Promise.all([b.write('rotate-root'), ...rotations, b.write('rotate-root')]);
    assert.equal(await slapd.canBind(ENGINE_DN, ENGINE_PASSWORD), false);

    // A crash after the directory changed and before the config was saved: the new password was saved first.
    storage.isDying = true;
    await assert.rejects(b.write('rotate-root'));
    storage.isDying = false;
    await b.write('rotate-role/r1');
    const dn = `cn=r1,ou=users,dc=example,dc=org`;
    assert.ok(await slapd.canBind(dn, String((await b.read('static-cred/r1'))?.data?.password)));
  });
});

/** Storage whose save of the config fails while `isDying`, once rotate-root has saved the pending password. */
class CrashOnConfigSave extends InmemStorage {
  isDying = false;
  override async put(key: string, value: Uint8Array): Promise<void> {
    const isFinalSave = key === 'config' && !JSON.parse(Buffer.from(value).toString()).pending_bindpass;
    if (this.isDying && isFinalSave) throw new Error('crashed');
    return super.put(key, value);
  }
}

describe('ldap engine with a client certificate: a directory that demands one over TLS', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd({ tls: true, requireClientCertificate: true });
  });
  after(() => slapd.stop());

  it('binds over ldaps:// and StartTLS with client_tls_cert and client_tls_key, and is refused without them', async () => {
    const rotate = async (config: Record<string, unknown>) => {
      const b = await testBackend(createLdapBackend);
      await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, certificate: slapd.caPem, ...config });
      const dn = await slapd.addUser(`mtls${Math.floor(Math.random() * 1e9)}`, 'initial');
      await b.write('static-role/m', { dn, username: dn, rotation_period: 60 });
      return slapd.canBind(dn, String((await b.read('static-cred/m'))?.data?.password));
    };
    const client = { client_tls_cert: slapd.clientCertPem, client_tls_key: slapd.clientKeyPem };
    assert.ok(await rotate({ url: slapd.ldapsUrl, ...client }));
    assert.ok(await rotate({ url: slapd.url, starttls: true, ...client }));
    await assert.rejects(rotate({ url: slapd.ldapsUrl }), UpstreamError);
    await assert.rejects(rotate({ url: slapd.url, starttls: true }), UpstreamError);
  });
});
