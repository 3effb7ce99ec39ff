import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Attribute, Change, Client } from 'ldapts';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { ADMIN_DN, ADMIN_PASSWORD, ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';

// Issue 31: the ldap auth method against a real slapd: users in several groups (groupOfNames
// with member, posixGroup with memberUid), a DN-valued group attribute on the user (as memberOf),
// wrong passwords, the lockout, and the directory down.

const USERS = `ou=users,${SUFFIX}`;
const GROUPS = `ou=groups,${SUFFIX}`;

describe('ldap auth method against slapd', () => {
  let slapd: Slapd;
  let t: TestServer;
  const login = (user: string, password: string, mount = 'ldap') =>
    t.request('POST', `auth/${mount}/login/${user}`, { token: null, body: { password } });

  before(async () => {
    slapd = await startSlapd({ memberOf: true, anonymousRead: true });
    const alice = await slapd.addUser('alice', 'alice-pw');
    const bob = await slapd.addUser('bob', 'bob-pw');
    await slapd.addUser('carol', 'carol-pw');
    await slapd.addUser('frank', 'frank-pw');
    const admin = new Client({ url: slapd.url });
    await admin.bind(ADMIN_DN, ADMIN_PASSWORD);
    await admin.add(GROUPS, { objectClass: 'organizationalUnit', ou: 'groups' });
    await admin.add(`cn=devs,${GROUPS}`, { objectClass: 'groupOfNames', cn: 'devs', member: [alice, bob] });
    await admin.add(`cn=Ops,${GROUPS}`, { objectClass: 'groupOfNames', cn: 'Ops', member: [alice] });
    await admin.add(`cn=staff,${GROUPS}`, {
      objectClass: 'posixGroup',
      cn: 'staff',
      gidNumber: '100',
      memberUid: ['bob'],
    });
    // A DN-valued attribute on the user naming its groups, the way memberOf does.
    await admin.modify(alice, [
      new Change({
        operation: 'add',
        modification: new Attribute({ type: 'seeAlso', values: [`cn=admins,${GROUPS}`] }),
      }),
    ]);
    await admin.unbind();
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/ldap', { type: 'ldap' });
    await t.ok('POST', 'auth/ldap/config', {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: USERS,
      userattr: 'cn',
      groupdn: GROUPS,
      token_policies: 'base',
    });
    await t.ok('POST', 'auth/ldap/groups/devs', { policies: 'dev' });
    await t.ok('POST', 'auth/ldap/groups/ops', { policies: 'ops,oncall' });
    await t.ok('POST', 'auth/ldap/groups/staff', { policies: 'staff' });
    await t.ok('POST', 'auth/ldap/users/alice', { policies: 'alice-own', groups: 'local-team' });
    await t.ok('POST', 'auth/ldap/groups/local-team', { policies: 'local' });
  });
  after(async () => {
    await t?.stop();
    await slapd?.stop();
  });

  it('keeps the config without its secrets, and the group and user mappings', async () => {
    const config = (await t.ok('GET', 'auth/ldap/config')).data;
    assert.equal(config.url, slapd.url);
    assert.equal(config.bindpass, undefined);
    assert.equal(config.groupfilter, '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))');
    assert.equal(config.groupattr, 'cn');
    assert.deepEqual(config.token_policies, ['base']);
    assert.deepEqual((await t.ok('GET', 'auth/ldap/groups/OPS')).data, { policies: ['oncall', 'ops'] });
    assert.deepEqual((await t.ok('LIST', 'auth/ldap/groups')).data.keys, ['devs', 'local-team', 'ops', 'staff']);
    assert.equal((await t.request('GET', 'auth/ldap/groups/none')).status, 404);
    for (const body of [{ url: 'http://x' }, { groupfilter: '(member={{.Nope}})' }, { userfilter: 'cn=x' }]) {
      assert.equal((await t.request('POST', 'auth/ldap/config', { body })).status, 400, JSON.stringify(body));
    }
  });

  it('logs a user in with the policies of every group the directory and the mappings put them in', async () => {
    const accessor = (await t.ok('GET', 'sys/auth')).data['ldap/'].accessor;
    const group = (await t.ok('POST', 'identity/group', { name: 'ldap-devs', type: 'external', policies: ['ext'] }))
      .data.id;
    await t.ok('POST', 'identity/group-alias', { name: 'devs', mount_accessor: accessor, canonical_id: group });
    const alice = await login('alice', 'alice-pw');
    assert.equal(alice.status, 200, JSON.stringify(alice.body));
    assert.deepEqual(alice.body.auth.token_policies, ['alice-own', 'base', 'default', 'dev', 'local', 'oncall', 'ops']);
    assert.deepEqual(alice.body.auth.identity_policies, ['ext']);
    assert.deepEqual(alice.body.auth.metadata, { username: 'alice' });
    const bob = await login('bob', 'bob-pw');
    assert.equal(bob.status, 200, JSON.stringify(bob.body));
    assert.deepEqual(bob.body.auth.token_policies, ['base', 'default', 'dev', 'staff'], 'memberUid and member');
  });

  it('refuses a wrong password and an unknown user alike with 403, and an empty password with 400', async () => {
    const wrong = await login('bob', 'nope');
    assert.equal(wrong.status, 403);
    const unknown = await login('mallory', 'nope');
    assert.equal(unknown.status, 403);
    assert.deepEqual(wrong.body.errors, unknown.body.errors);
    assert.equal((await login('bob', '')).status, 400);
    assert.equal((await login('b*', 'bob-pw')).status, 403, 'a filter character in the name matches nothing');
  });

  it('locks a user out after five failures, as userpass does', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await login('carol', `wrong-${i}`)).status, 403);
    assert.equal((await login('carol', 'carol-pw')).status, 403, 'locked: even the right password is refused');
    const locked = (await t.ok('GET', 'sys/locked-users')).data;
    assert.ok(JSON.stringify(locked).includes('carol'), JSON.stringify(locked));
  });

  it('counts failures of every spelling of a name (case, spaces) against one lockout (issue 28, HCSEC-2025-16/20)', async () => {
    for (const name of ['Frank', 'frank%20', '%20frank', 'FRANK', 'frank']) {
      assert.equal((await login(name, 'wrong')).status, 403, name);
    }
    assert.equal((await login('frank', 'frank-pw')).status, 403, 'locked: the five spellings were one name');
  });

  it('binds at userattr=name,userdn without a service account, and reads a DN-valued group attribute', async () => {
    await t.ok('POST', 'sys/auth/direct', { type: 'ldap' });
    await t.ok('POST', 'auth/direct/config', {
      url: slapd.url,
      userdn: USERS,
      userattr: 'cn',
      groupdn: USERS,
      groupfilter: '(&(objectClass=inetOrgPerson)(cn={{.Username}}))',
      groupattr: 'seeAlso',
    });
    await t.ok('POST', 'auth/direct/groups/admins', { policies: 'admin' });
    const res = await login('alice', 'alice-pw', 'direct');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['admin', 'default']);
    assert.equal((await login('alice', 'wrong', 'direct')).status, 403);
  });

  it('reads the groups from the user’s memberOf (the memberof overlay)', async () => {
    await t.ok('POST', 'sys/auth/memberof', { type: 'ldap' });
    await t.ok('POST', 'auth/memberof/config', {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: USERS,
      groupdn: USERS,
      groupfilter: '(&(objectClass=inetOrgPerson)(cn={{.Username}}))',
      groupattr: 'memberOf',
    });
    await t.ok('POST', 'auth/memberof/groups/ops', { policies: 'ops' });
    await t.ok('POST', 'auth/memberof/groups/devs', { policies: 'dev' });
    const res = await login('alice', 'alice-pw', 'memberof');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'dev', 'ops']);
  });

  it('finds the user by an anonymous search with discoverdn and no binddn', async () => {
    await t.ok('POST', 'sys/auth/discover', { type: 'ldap' });
    await t.ok('POST', 'auth/discover/config', {
      url: slapd.url,
      discoverdn: true,
      userdn: `ou=users,${SUFFIX}`,
      userattr: 'cn',
      groupdn: GROUPS,
    });
    await t.ok('POST', 'auth/discover/groups/devs', { policies: 'dev' });
    const res = await login('bob', 'bob-pw', 'discover');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'dev']);
    assert.equal((await login('bob', 'wrong', 'discover')).status, 403);
    assert.equal((await login('nobody', 'x', 'discover')).status, 403, 'no entry found');
  });

  it('accepts use_token_groups (AD only) and keeps it', async () => {
    await t.ok('POST', 'auth/discover/config', { use_token_groups: true });
    assert.equal((await t.ok('GET', 'auth/discover/config')).data.use_token_groups, true);
    assert.equal((await t.ok('GET', 'auth/ldap/config')).data.use_token_groups, false);
  });

  it('keeps the case of group names with case_sensitive_names', async () => {
    await t.ok('POST', 'sys/auth/cased', { type: 'ldap' });
    await t.ok('POST', 'auth/cased/config', {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: USERS,
      groupdn: GROUPS,
      case_sensitive_names: true,
    });
    await t.ok('POST', 'auth/cased/groups/Ops', { policies: 'ops-exact' });
    await t.ok('POST', 'auth/cased/groups/ops', { policies: 'ops-lower' });
    await t.ok('POST', 'auth/cased/groups/devs', { policies: 'dev' });
    const res = await login('alice', 'alice-pw', 'cased');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'dev', 'ops-exact']);
  });

  it('binds as <username>@<upndomain>, which slapd refuses as no DN: a 403, not an outage', async () => {
    await t.ok('POST', 'sys/auth/upn', { type: 'ldap' });
    await t.ok('POST', 'auth/upn/config', { url: slapd.url, upndomain: 'example.org', userdn: USERS });
    assert.equal((await login('alice', 'alice-pw', 'upn')).status, 403);
  });

  it('answers 502 when the directory cannot be reached', async () => {
    await t.ok('POST', 'sys/auth/down', { type: 'ldap' });
    await t.ok('POST', 'auth/down/config', {
      url: 'ldap://127.0.0.1:1',
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: USERS,
      connection_timeout: 2,
    });
    const res = await login('alice', 'alice-pw', 'down');
    assert.equal(res.status, 502, JSON.stringify(res.body));
    await slapd.stop();
    const stopped = await login('bob', 'bob-pw');
    assert.equal(stopped.status, 502, JSON.stringify(stopped.body));
  });
});

describe('ldap auth method: nested groups (slapd dynlist memberOf)', () => {
  let slapd: Slapd;
  let t: TestServer;
  const login = (mount: string) =>
    t.request('POST', `auth/${mount}/login/dave`, { token: null, body: { password: 'dave-pw' } });

  before(async () => {
    slapd = await startSlapd({ nestedMemberOf: true });
    const dave = await slapd.addUser('dave', 'dave-pw');
    const admin = new Client({ url: slapd.url });
    await admin.bind(ADMIN_DN, ADMIN_PASSWORD);
    await admin.add(GROUPS, { objectClass: 'organizationalUnit', ou: 'groups' });
    // dave is in team; team is in eng; eng is in everyone.
    await admin.add(`cn=team,${GROUPS}`, { objectClass: 'groupOfNames', cn: 'team', member: [dave] });
    await admin.add(`cn=eng,${GROUPS}`, { objectClass: 'groupOfNames', cn: 'eng', member: [`cn=team,${GROUPS}`] });
    await admin.add(`cn=everyone,${GROUPS}`, {
      objectClass: 'groupOfNames',
      cn: 'everyone',
      member: [`cn=eng,${GROUPS}`],
    });
    await admin.unbind();
    t = await startTestServer();
    const base = { url: slapd.url, binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, userdn: USERS };
    await t.ok('POST', 'sys/auth/search', { type: 'ldap' });
    await t.ok('POST', 'auth/search/config', { ...base, groupdn: GROUPS });
    await t.ok('POST', 'sys/auth/memberof', { type: 'ldap' });
    await t.ok('POST', 'auth/memberof/config', {
      ...base,
      groupdn: USERS,
      groupfilter: '(&(objectClass=person)(cn={{.Username}}))',
      groupattr: 'memberOf',
    });
    // AD's in-chain matching rule (LDAP_MATCHING_RULE_IN_CHAIN) is a valid groupfilter; slapd does not know it.
    await t.ok('POST', 'sys/auth/inchain', { type: 'ldap' });
    await t.ok('POST', 'auth/inchain/config', {
      ...base,
      groupdn: GROUPS,
      groupfilter: '(&(objectClass=groupOfNames)(member:1.2.840.113556.1.4.1941:={{.UserDN}}))',
    });
    for (const mount of ['search', 'memberof', 'inchain'])
      for (const group of ['team', 'eng', 'everyone'])
        await t.ok('POST', `auth/${mount}/groups/${group}`, { policies: `p-${group}` });
  });
  after(async () => {
    await t?.stop();
    await slapd?.stop();
  });

  it('finds the direct groups through a group search (the default groupfilter does not recurse)', async () => {
    const res = await login('search');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'p-team']);
  });

  it('finds the nested groups through the user’s memberOf', async () => {
    const res = await login('memberof');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'p-eng', 'p-everyone', 'p-team']);
  });

  it('accepts AD’s in-chain groupfilter; slapd, not knowing the rule, matches no group', async () => {
    const res = await login('inchain');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default']);
  });
});
