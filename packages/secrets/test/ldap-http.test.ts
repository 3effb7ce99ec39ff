import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, startSlapd } from './slapd.js';
import { type DevWard, startDevWard, WARD_BIN } from './ward-process.js';

const run = promisify(execFile);

describe('ldap engine over HTTP through bin/ward, against slapd', () => {
  let slapd: Slapd;
  let dev: DevWard;

  before(async () => {
    slapd = await startSlapd();
    dev = await startDevWard('root');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await slapd?.stop();
  });

  it('mounts as openldap, refuses length with password_policy (400), rotates with a password policy', async () => {
    assert.equal((await dev.call('POST', 'sys/mounts/ldap', { type: 'openldap' })).status, 204);
    const both = await dev.call('POST', 'ldap/config', {
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      url: slapd.url,
      length: 20,
      password_policy: 'digits',
    });
    assert.equal(both.status, 400);
    assert.deepEqual(both.body.errors, ["cannot set both 'password_policy' and 'length'"]);

    const config = { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url, password_policy: 'digits' };
    assert.equal((await dev.call('POST', 'ldap/config', config)).status, 204);
    const read = await dev.call('GET', 'ldap/config');
    assert.equal(read.body.data.password_policy, 'digits');
    assert.equal(read.body.data.bindpass, undefined);

    const dn = await slapd.addUser('carol', 'carol-initial');
    // The policy need not exist when the config is saved, but must when a password is made: 400 until then.
    const early = await dev.call('POST', 'ldap/static-role/carol', { dn, username: 'carol', rotation_period: '1h' });
    assert.equal(early.status, 400);
    assert.match(early.body.errors[0], /password policy "digits" does not exist/);
    await dev.call('POST', 'sys/policies/password/digits', {
      policy: 'length = 12\nrule "charset" {\n  charset = "0123456789"\n  min-chars = 12\n}\n',
    });
    assert.equal(
      (await dev.call('POST', 'ldap/static-role/carol', { dn, username: 'carol', rotation_period: '1h' })).status,
      204,
    );
    const cred = await dev.call('GET', 'ldap/static-cred/carol');
    assert.equal(cred.status, 200);
    assert.match(cred.body.data.password, /^\d{12}$/);
    assert.equal(cred.body.password, cred.body.data.password, 'also at the top level, as spec 001 shows');
    assert.equal(cred.body.rotation_period, 3600);
    assert.ok(cred.body.data.ttl > 3590 && cred.body.data.ttl <= 3600);
    assert.ok(await slapd.canBind(dn, cred.body.data.password));

    assert.equal((await dev.call('POST', 'ldap/rotate-root')).status, 204);
    assert.equal(await slapd.canBind(ENGINE_DN, ENGINE_PASSWORD), false);
    // Still bound with the rotated password it alone knows.
    assert.equal((await dev.call('POST', 'ldap/rotate-role/carol')).status, 204);
    const after = await dev.call('GET', 'ldap/static-cred/carol');
    assert.notEqual(after.body.data.password, cred.body.data.password);
    assert.ok(await slapd.canBind(dn, after.body.data.password));
  });

  it('ward read prints a static credential', async () => {
    const { stdout } = await run(process.execPath, [WARD_BIN, 'read', '-format=json', 'ldap/static-cred/carol'], {
      env: { ...process.env, VAULT_ADDR: dev.url, VAULT_TOKEN: 'root' },
    });
    assert.match(JSON.parse(stdout).data.password, /^\d{12}$/);
  });

  it('ward read prints a dynamic credential with its lease; ward lease revoke deletes the account', async () => {
    const role = {
      creation_ldif: `dn: cn={{.Username}},ou=users,dc=example,dc=org\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: x\nuserPassword: {{.Password}}\n`,
      deletion_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nchangetype: delete\n',
      default_ttl: '10m',
    };
    assert.equal((await dev.call('POST', 'ldap/role/temp', role)).status, 204);
    const env = { ...process.env, VAULT_ADDR: dev.url, VAULT_TOKEN: 'root' };
    const { stdout } = await run(process.execPath, [WARD_BIN, 'read', 'ldap/creds/temp'], { env });
    const leaseId = /lease_id\s+(\S+)/.exec(stdout)?.[1] ?? '';
    assert.match(leaseId, /^ldap\/creds\/temp\//);
    assert.match(stdout, /lease_duration\s+10m/);
    const username = /username\s+(\S+)/.exec(stdout)?.[1] ?? '';
    assert.match(username, /^v_root_temp_[A-Za-z0-9]{10}_\d+$/, 'the default username template');
    const dn = `cn=${username},ou=users,dc=example,dc=org`;
    assert.ok(await slapd.exists(dn));

    await run(process.execPath, [WARD_BIN, 'lease', 'revoke', leaseId], { env });
    assert.equal(await slapd.exists(dn), false);
  });

  it('hierarchical role names: org/team/name everywhere, LIST one level at a time', async () => {
    for (const name of ['eve', 'Org/Team/Frank']) {
      const dn = await slapd.addUser(name.split('/').at(-1)?.toLowerCase() ?? '', 'initial');
      const saved = await dev.call('POST', `ldap/static-role/${name}`, { dn, username: name, rotation_period: '1h' });
      assert.equal(saved.status, 204, JSON.stringify(saved.body));
    }
    const list = async (path: string) => (await dev.call('LIST', path)).body?.data?.keys;
    assert.deepEqual(await list('ldap/static-role'), ['carol', 'eve', 'org/']);
    assert.deepEqual(await list('ldap/static-role/org'), ['team/']);
    assert.deepEqual(await list('ldap/static-role/Org/team/'), ['frank']);
    assert.equal((await dev.call('GET', 'ldap/static-role/org/team/frank')).body.data.username, 'Org/Team/Frank');
    const before = (await dev.call('GET', 'ldap/static-cred/org/team/frank')).body.data.password;
    assert.equal((await dev.call('POST', 'ldap/rotate-role/org/team/frank')).status, 204);
    const after = (await dev.call('GET', 'ldap/static-cred/org/team/frank')).body.data.password;
    assert.notEqual(after, before);
    assert.ok(await slapd.canBind('cn=frank,ou=users,dc=example,dc=org', after));
    // Each level follows the name rule: no empty level, no `..`.
    for (const bad of ['a//b', 'a/../b', 'a/', '/a']) {
      assert.equal((await dev.call('GET', `ldap/static-role/${bad}`)).status, 404, bad);
    }

    const role = {
      creation_ldif: `dn: cn={{.Username}},ou=users,dc=example,dc=org\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: x\n`,
      deletion_ldif: 'dn: cn={{.Username}},ou=users,dc=example,dc=org\nchangetype: delete\n',
      username_template: '{{.RoleName | replace "/" "-"}}_{{random 6}}',
    };
    assert.equal((await dev.call('POST', 'ldap/role/dev/web', role)).status, 204);
    assert.deepEqual(await list('ldap/role'), ['dev/', 'temp']);
    assert.deepEqual(await list('ldap/role/dev'), ['web']);
    const issued = await dev.call('GET', 'ldap/creds/dev/web');
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.match(issued.body.data.username, /^dev-web_\w{6}$/);
    assert.match(issued.body.lease_id, /^ldap\/creds\/dev\/web\//);
    assert.equal((await dev.call('PUT', 'sys/leases/revoke', { lease_id: issued.body.lease_id })).status, 204);
    assert.equal(await slapd.exists(`cn=${issued.body.data.username},ou=users,dc=example,dc=org`), false);
  });

  it('answers a directory that cannot be reached with 502 and the reason', async () => {
    await dev.call('POST', 'ldap/config', { url: 'ldap://127.0.0.1:1', connection_timeout: 1 });
    const res = await dev.call('POST', 'ldap/rotate-role/carol');
    assert.equal(res.status, 502);
    assert.match(res.body.errors[0], /ECONNREFUSED/);
    const role = await dev.call('GET', 'ldap/static-role/carol');
    assert.match(role.body.data.last_rotation_error, /ECONNREFUSED/);
  });
});
