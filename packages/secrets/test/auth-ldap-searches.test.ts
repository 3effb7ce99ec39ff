import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'ldapts';
import { ADMIN_DN, ADMIN_PASSWORD, ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 31 (LDAP): the group search paged with `max_page_size` (the paged results control),
// against a slapd whose size limit is below the user's count of groups, and `dereference_aliases`
// with alias entries (core schema's `alias`), through bin/ward.

const ROOT = 'root-ldap-searches';
const USERS = `ou=users,${SUFFIX}`;
const GROUPS = `ou=groups,${SUFFIX}`;
const SIZE_LIMIT = 3;
const TEAMS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
const GROUPS_LINK = `ou=groups-link,${SUFFIX}`;
const TEAM_LINKS = `ou=team-links,${SUFFIX}`;

describe('ldap auth searches (paging) against slapd, through bin/ward', () => {
  let slapd: Slapd;
  let dev: DevWard;
  const login = (mount: string) => dev.call('POST', `auth/${mount}/login/alice`, { password: 'alice-pw' }, null);
  const mount = async (name: string, config: Record<string, unknown>) => {
    await dev.ok('POST', `sys/auth/${name}`, { type: 'ldap' });
    await dev.ok('POST', `auth/${name}/config`, {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: USERS,
      groupdn: GROUPS,
      ...config,
    });
    for (const team of TEAMS) await dev.ok('POST', `auth/${name}/groups/${team}`, { policies: `p-${team}` });
  };

  before(async () => {
    slapd = await startSlapd({ sizeLimit: SIZE_LIMIT });
    const alice = await slapd.addUser('alice', 'alice-pw');
    const admin = new Client({ url: slapd.url });
    await admin.bind(ADMIN_DN, ADMIN_PASSWORD);
    await admin.add(GROUPS, { objectClass: 'organizationalUnit', ou: 'groups' });
    for (const team of TEAMS)
      await admin.add(`cn=${team},${GROUPS}`, { objectClass: 'groupOfNames', cn: team, member: alice });
    // An alias of the groups' container, and a container holding an alias of one group.
    await admin.add(GROUPS_LINK, {
      objectClass: ['alias', 'extensibleObject'],
      ou: 'groups-link',
      aliasedObjectName: GROUPS,
    });
    await admin.add(TEAM_LINKS, { objectClass: 'organizationalUnit', ou: 'team-links' });
    await admin.add(`cn=t1-link,${TEAM_LINKS}`, {
      objectClass: ['alias', 'extensibleObject'],
      cn: 't1-link',
      aliasedObjectName: `cn=t1,${GROUPS}`,
    });
    await admin.unbind();
    dev = await startDevWard(ROOT);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await slapd?.stop();
  });

  it('reads every group page by page with max_page_size, where one search exceeds the size limit', async () => {
    await mount('unpaged', {});
    const unpaged = await login('unpaged');
    assert.equal(
      unpaged.status,
      502,
      `without paging slapd answers sizeLimitExceeded: ${JSON.stringify(unpaged.body)}`,
    );

    await mount('paged', { max_page_size: 2 });
    assert.equal((await dev.ok('GET', 'auth/paged/config')).data.max_page_size, 2);
    const paged = await login('paged');
    assert.equal(paged.status, 200, JSON.stringify(paged.body));
    assert.deepEqual(paged.body.auth.policies, ['default', ...TEAMS.map((t) => `p-${t}`)]);
  });

  it('dereferences aliases as dereference_aliases says: in finding the base, in searching, both, or never', async () => {
    await mount('aliased', { max_page_size: 2 });
    const all = ['default', ...TEAMS.map((t) => `p-${t}`)];
    const policiesWith = async (dereference_aliases: string, groupdn: string) => {
      await dev.ok('POST', 'auth/aliased/config', { dereference_aliases, groupdn });
      const res = await login('aliased');
      assert.equal(res.status, 200, `${dereference_aliases} ${groupdn}: ${JSON.stringify(res.body)}`);
      return res.body.auth.policies;
    };
    assert.equal((await dev.ok('GET', 'auth/aliased/config')).data.dereference_aliases, 'never');
    assert.deepEqual(await policiesWith('never', GROUPS_LINK), ['default']);
    assert.deepEqual(await policiesWith('never', TEAM_LINKS), ['default']);
    assert.deepEqual(await policiesWith('finding', GROUPS_LINK), all, 'the base alias followed');
    assert.deepEqual(await policiesWith('finding', TEAM_LINKS), ['default'], 'not the aliases below the base');
    assert.deepEqual(await policiesWith('searching', TEAM_LINKS), ['default', 'p-t1'], 'the aliases below the base');
    assert.deepEqual(await policiesWith('always', GROUPS_LINK), all);
    assert.deepEqual(await policiesWith('always', TEAM_LINKS), ['default', 'p-t1']);
    assert.equal((await dev.ok('GET', 'auth/aliased/config')).data.dereference_aliases, 'always');
    const bad = await dev.call('POST', 'auth/aliased/config', { dereference_aliases: 'sometimes' });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
  });
});
