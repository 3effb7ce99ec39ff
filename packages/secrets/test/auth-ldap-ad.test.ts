import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeActiveDirectory, startFakeActiveDirectory } from './fakes/active-directory.js';
import { makeTlsIdentity, type TlsIdentity } from './fakes/tls-identity.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 31 point 1: logins by user principal name (`upndomain`) against a protocol-level fake of
// Active Directory's LDAP (slapd refuses a bind whose name is no DN), through bin/ward: the bind
// as `<username>@<upndomain>`, the entry found by `userPrincipalName` for `{{.UserDN}}`, groups by
// `member` and by `memberOf`, wrong passwords 403, StartTLS.

const ROOT = 'root-ldap-ad';

describe('ldap auth by UPN against a fake Active Directory, through bin/ward', () => {
  let ad: FakeActiveDirectory;
  let tls: TlsIdentity;
  let dev: DevWard;
  let aliceDn = '';
  const login = (mount: string, user: string, password: string) =>
    dev.call('POST', `auth/${mount}/login/${user}`, { password }, null);
  const mount = async (name: string, config: Record<string, unknown>) => {
    await dev.ok('POST', `sys/auth/${name}`, { type: 'ldap' });
    await dev.ok('POST', `auth/${name}/config`, { url: ad.url, upndomain: ad.domain, userdn: ad.usersDn, ...config });
    await dev.ok('POST', `auth/${name}/groups/vpn-users`, { policies: 'vpn' });
    await dev.ok('POST', `auth/${name}/groups/admins`, { policies: 'admin' });
  };

  before(async () => {
    tls = await makeTlsIdentity([]);
    ad = await startFakeActiveDirectory({ tls });
    aliceDn = ad.addUser('alice', 'Alice-Pw1');
    const bob = ad.addUser('bob', 'Bob-Pw1');
    ad.addUser('svc-ward', 'Svc-Pw1');
    const vpnUsers = ad.addGroup('vpn-users', [aliceDn, bob]);
    ad.addGroup('admins', [aliceDn]);
    // A group in a group: only tokenGroups (or an in-chain rule) finds it for alice and bob.
    ad.addGroup('remote-staff', [vpnUsers]);
    dev = await startDevWard(ROOT);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await ad?.close();
  });

  it('binds as <username>@<upndomain>, finds the entry by userPrincipalName, and its groups by member', async () => {
    await mount('ad', {
      groupdn: ad.groupsDn,
      groupfilter: '(&(objectClass=group)(member={{.UserDN}}))',
      groupattr: 'cn',
    });
    const binds = ad.binds.length;
    const res = await login('ad', 'alice', 'Alice-Pw1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['admin', 'default', 'vpn']);
    assert.equal(res.body.auth.metadata.username, 'alice');
    assert.deepEqual(ad.binds.slice(binds), [`alice@${ad.domain}`]);
    assert.ok(
      // ldapts writes attribute names in lower case.
      ad.searches.some((s) => s.base === ad.usersDn && s.filter === `(userprincipalname=alice@${ad.domain})`),
      JSON.stringify(ad.searches),
    );
    assert.ok(
      ad.searches.some((s) => s.filter.includes(`member=${aliceDn}`)),
      'the group search names the DN found',
    );
    const bob = await login('ad', 'bob', 'Bob-Pw1');
    assert.equal(bob.status, 200);
    assert.deepEqual(bob.body.auth.policies, ['default', 'vpn']);
  });

  it('answers 403 for a wrong password and for an unknown user', async () => {
    const wrong = await login('ad', 'alice', 'not-it');
    assert.equal(wrong.status, 403, JSON.stringify(wrong.body));
    assert.equal((await login('ad', 'mallory', 'Alice-Pw1')).status, 403);
  });

  it('reads groups from memberOf on the entry found, searching as a service account over StartTLS', async () => {
    await mount('admemberof', {
      binddn: `svc-ward@${ad.domain}`,
      bindpass: 'Svc-Pw1',
      userattr: 'sAMAccountName',
      groupdn: ad.usersDn,
      groupfilter: '(&(objectClass=user)(distinguishedName={{.UserDN}}))',
      groupattr: 'memberOf',
      starttls: true,
      certificate: tls.cert,
    });
    const binds = ad.binds.length;
    const res = await login('admemberof', 'alice', 'Alice-Pw1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['admin', 'default', 'vpn']);
    assert.ok(ad.binds.slice(binds).includes(aliceDn), 'the user bound with the DN the service account found');
    assert.equal((await login('admemberof', 'alice', 'wrong')).status, 403);
  });

  it('searches the entry by userPrincipalName after the bind even without groupdn (as established)', async () => {
    await mount('adnogroups', {});
    const searches = ad.searches.length;
    const res = await login('adnogroups', 'alice', 'Alice-Pw1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['default']);
    assert.deepEqual(
      ad.searches.slice(searches).map((s) => s.filter),
      [`(userprincipalname=alice@${ad.domain})`],
    );
  });

  it('finds the groups, nested ones too, from the tokenGroups of the entry (use_token_groups), no groupdn needed', async () => {
    await mount('adtoken', { use_token_groups: true });
    await dev.ok('POST', 'auth/adtoken/groups/remote-staff', { policies: 'remote' });
    const searches = ad.searches.length;
    const res = await login('adtoken', 'alice', 'Alice-Pw1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['admin', 'default', 'remote', 'vpn']);
    const made = ad.searches.slice(searches);
    assert.ok(
      made.some((s) => s.base === aliceDn && s.scope === 'base'),
      `tokenGroups read on the entry found by UPN: ${JSON.stringify(made)}`,
    );
    const bySid = made.filter((s) => /^<SID=S-1-5-21-[\d-]+>$/.test(s.base) && s.scope === 'base');
    assert.equal(bySid.length, 3, `each group looked up by its SID: ${JSON.stringify(made)}`);
    const bob = await login('adtoken', 'bob', 'Bob-Pw1');
    assert.equal(bob.status, 200, JSON.stringify(bob.body));
    assert.deepEqual(bob.body.auth.policies, ['default', 'remote', 'vpn']);
    assert.equal((await login('adtoken', 'bob', 'wrong')).status, 403);
  });
});
