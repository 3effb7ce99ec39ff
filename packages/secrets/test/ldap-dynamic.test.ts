import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { Client } from 'ldapts';
import { createLdapBackend } from '../src/engines/ldap/backend.js';
import { testBackend } from '../src/framework/testing.js';
import { InvalidRequestError, NotFoundError, UpstreamError } from '../src/logical/errors.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { ADMIN_DN, ADMIN_PASSWORD, ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';

const CREATION = `dn: cn={{.Username}},ou=users,${SUFFIX}
objectClass: inetOrgPerson
cn: {{.Username}}
sn: {{.RoleName | uppercase}}
userPassword: {{.Password}}
description: {{.IssueTimeSeconds}}
`;
const DELETION = `dn: cn={{.Username}},ou=users,${SUFFIX}
changetype: delete
`;

describe('ldap dynamic roles against slapd', () => {
  let slapd: Slapd;
  before(async () => {
    slapd = await startSlapd();
  });
  after(() => slapd.stop());

  const setup = async () => {
    const b = await testBackend(createLdapBackend, { clock: new FakeClock('2024-01-01T00:00:00Z') });
    await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    return b;
  };

  it('creates the account, leases it with the role TTL, and revoking deletes it', async () => {
    const b = await setup();
    await b.write('role/Dev', {
      creation_ldif: Buffer.from(CREATION).toString('base64'),
      deletion_ldif: DELETION,
      default_ttl: '1h',
      max_ttl: '2h',
      username_template: '{{.RoleName}}_{{random 6 | lowercase}}',
    });
    const role = (await b.read('role/dev'))?.data;
    assert.equal(role?.creation_ldif, CREATION, 'base64 LDIF is stored and returned decoded');
    assert.equal(role?.default_ttl, 3600);
    assert.deepEqual((await b.list('role'))?.data?.keys, ['dev']);

    const res = await b.read('creds/dev');
    const secret = res?.secret;
    assert.equal(secret?.ttlSeconds, 3600);
    const username = String(secret?.data.username);
    assert.match(username, /^dev_[a-z0-9]{6}$/);
    const dn = `cn=${username},ou=users,${SUFFIX}`;
    assert.deepEqual(secret?.data.distinguished_names, [dn]);
    assert.ok(await slapd.canBind(dn, String(secret?.data.password)));

    // Renew re-reads the role: a shorter default now gives a shorter renewal.
    await b.write('role/dev', { default_ttl: 600 });
    const renewed = await b.backend.renewSecret(
      { leaseId: 'l', type: 'dynamic_creds', internal: secret?.internal ?? {} },
      0,
    );
    assert.equal(renewed?.ttlSeconds, 600);

    await b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal: secret?.internal ?? {} });
    assert.equal(await slapd.exists(dn), false);
    // Idempotent: a revocation run again after a crash still succeeds.
    await b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal: secret?.internal ?? {} });
  });

  it('stops at the first failing creation entry and runs the rollback in full', async () => {
    const b = await setup();
    const group = `cn=g-{{.Username}},ou=users,${SUFFIX}`;
    await b.write('role/broken', {
      creation_ldif: `${CREATION}\ndn: ${group}\nobjectClass: groupOfNames\ncn: g-{{.Username}}\n\ndn: cn=never,ou=users,${SUFFIX}\nobjectClass: inetOrgPerson\ncn: never\nsn: never\n`,
      // The second entry fails (no member): the third never runs; the rollback deletes the first.
      rollback_ldif: `dn: ${group}\nchangetype: delete\n\ndn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: delete\n`,
      deletion_ldif: DELETION,
      username_template: 'rb_{{random 5 | lowercase}}',
    });
    await assert.rejects(b.read('creds/broken'), (err: Error) => {
      assert.ok(err instanceof UpstreamError);
      assert.match(
        err.message,
        /failed to create user: failed to run AddRequest: LDAP Result Code 65 "Object Class Violation"/,
      );
      return true;
    });
    const client = new Client({ url: slapd.url });
    await client.bind(ADMIN_DN, ADMIN_PASSWORD);
    const { searchEntries } = await client.search(`ou=users,${SUFFIX}`, { filter: '(|(cn=rb_*)(cn=never))' });
    await client.unbind();
    assert.deepEqual(searchEntries, []);
  });

  it('validates templates and LDIF when the role is saved, and merges partial updates', async () => {
    const b = await setup();
    await assert.rejects(b.write('role/x', { creation_ldif: CREATION }), /missing deletion_ldif/);
    await assert.rejects(b.write('role/x', { creation_ldif: '{{nope}}', deletion_ldif: DELETION }), (err: Error) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.match(err.message, /^invalid creation_ldif: invalid template: function "nope" not defined/);
      return true;
    });
    await assert.rejects(
      b.write('role/x', { creation_ldif: 'dn: cn=a\nchangetype: rename\n', deletion_ldif: DELETION }),
      /invalid creation_ldif: LDIF is invalid: Error in line 2: invalid changetype rename/,
    );
    await assert.rejects(
      b.write('role/x', { creation_ldif: '# nothing\n', deletion_ldif: DELETION }),
      /at least one LDIF entry/,
    );
    await assert.rejects(
      b.write('role/x', { creation_ldif: '{{.Nope}}', deletion_ldif: DELETION }),
      /can't evaluate field Nope/,
    );

    await b.write('role/x', {
      creation_ldif: CREATION,
      deletion_ldif: DELETION,
      rollback_ldif: DELETION,
      default_ttl: 60,
    });
    await b.write('role/x', { rollback_ldif: '', max_ttl: 120 });
    const role = (await b.read('role/x'))?.data;
    assert.equal(role?.rollback_ldif, '');
    assert.equal(role?.default_ttl, 60);
    assert.equal(role?.max_ttl, 120);
    await assert.rejects(b.read('creds/missing'), NotFoundError);
  });

  it('the deletion LDIF is rendered at issue: time in it is the issue time, and one that cannot render refuses the issue', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const b = await testBackend(createLdapBackend, { clock });
    await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    const named = `cn={{.Username}}-{{unix_time}},ou=users,${SUFFIX}`;
    await b.write('role/timed', {
      creation_ldif: `dn: ${named}\nobjectClass: inetOrgPerson\nsn: x\n`,
      deletion_ldif: `dn: ${named}\nchangetype: delete\n`,
      username_template: 'timed_{{random 6 | lowercase}}',
    });
    const secret = (await b.read('creds/timed'))?.secret;
    const [dn] = secret?.data.distinguished_names as string[];
    assert.ok(await slapd.exists(String(dn)));
    clock.advance(3_600_000);
    // Changing the role afterwards changes nothing for the lease either.
    await b.write('role/timed', { deletion_ldif: `dn: cn=other,ou=users,${SUFFIX}\nchangetype: delete\n` });
    await b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal: secret?.internal ?? {} });
    assert.equal(await slapd.exists(String(dn)), false);

    // Renders with the sample data when saved, fails with the real role name: refused before anything is created.
    await b.write('role/fragile', {
      creation_ldif: CREATION,
      deletion_ldif: `${DELETION}{{if ne .RoleName "testrolename"}}{{truncate_sha256 4 .Username}}{{end}}`,
      username_template: 'fragile_user',
    });
    await assert.rejects(b.read('creds/fragile'), (err: Error) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.match(err.message, /^invalid deletion_ldif: error calling truncate_sha256: max length must be > 8/);
      return true;
    });
    assert.equal(await slapd.exists(`cn=fragile_user,ou=users,${SUFFIX}`), false);
  });

  it('a lease issued before deletions were rendered at issue (template and data kept) still revokes', async () => {
    const b = await testBackend(createLdapBackend);
    await b.write('config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    const dn = await slapd.addUser('olduser', 'x');
    const internal = { role: 'gone', deletion_ldif: DELETION, data: { Username: 'olduser' }, issued_ms: 0 };
    await b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal });
    assert.equal(await slapd.exists(dn), false);
  });

  it('an AD-style template: utf16le | base64 in unicodePwd:: gives the quoted UTF-16LE password byte-exact', async () => {
    const b = await setup();
    // slapd has no unicodePwd: check the rendered LDIF through a modify that stores the bytes in `description`.
    await b.write('role/ad', {
      creation_ldif: `${CREATION}\ndn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: modify\nreplace: description\ndescription:: {{printf "\\"%s\\"" .Password | utf16le | base64}}\n-\n`,
      deletion_ldif: DELETION,
      username_template: 'ad_{{random 5 | lowercase}}',
    });
    const secret = (await b.read('creds/ad'))?.secret;
    const client = new Client({ url: slapd.url });
    await client.bind(ADMIN_DN, ADMIN_PASSWORD);
    const { searchEntries } = await client.search(`cn=${secret?.data.username},ou=users,${SUFFIX}`, {
      scope: 'base',
      attributes: ['description;binary', 'description'],
      explicitBufferAttributes: ['description'],
    });
    await client.unbind();
    const stored = searchEntries[0]?.description as Buffer;
    assert.deepEqual(stored, Buffer.from(`"${secret?.data.password}"`, 'utf16le'));
    await b.backend.revokeSecret({ leaseId: 'l', type: 'dynamic_creds', internal: secret?.internal ?? {} });
  });
});

describe('ldap dynamic credentials over HTTP: lease expiry deletes the account', () => {
  let slapd: Slapd;
  let ward: TestServer;
  const clock = new FakeClock(Date.now());
  before(async () => {
    slapd = await startSlapd();
    ward = await startTestServer({ clock });
  });
  after(async () => {
    await ward.stop();
    await slapd.stop();
  });

  it('issues a lease; revoke and expiry each delete the entry', async () => {
    await ward.request('POST', 'sys/mounts/ldap', { body: { type: 'ldap' } });
    await ward.request('POST', 'ldap/config', {
      body: { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url },
    });
    await ward.request('POST', 'ldap/role/temp', {
      body: {
        creation_ldif: CREATION,
        deletion_ldif: DELETION,
        default_ttl: 60,
        username_template: 't_{{random 8 | lowercase}}',
      },
    });
    const issue = async () => {
      const res = await ward.request('GET', 'ldap/creds/temp');
      assert.equal(res.status, 200);
      assert.match(res.body.lease_id, /^ldap\/creds\/temp\//);
      assert.equal(res.body.lease_duration, 60);
      assert.equal(res.body.renewable, true);
      const dn = `cn=${res.body.data.username},ou=users,${SUFFIX}`;
      assert.ok(await slapd.exists(dn));
      return { leaseId: res.body.lease_id as string, dn };
    };

    const revoked = await issue();
    assert.equal((await ward.request('PUT', 'sys/leases/revoke', { body: { lease_id: revoked.leaseId } })).status, 204);
    assert.equal(await slapd.exists(revoked.dn), false);

    const expiring = await issue();
    clock.advance(61_000);
    for (let i = 0; i < 100 && (await slapd.exists(expiring.dn)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await slapd.exists(expiring.dn), false);
  });
});
