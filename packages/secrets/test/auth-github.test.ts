import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.js';

// Issue 18: the GitHub auth method (hvac's test_auth.py enables one), against a GitHub REST API
// fake over real HTTP: config (organization id asked of GitHub), team and user maps, login.

const ORG = 41;
const OTHER_ORG = 42;

describe('GitHub auth method', () => {
  let t: TestServer;
  let github: FakeGitHub;
  const login = (token: string, mount = 'github') =>
    t.request('POST', `auth/${mount}/login`, { token: null, body: { token } });

  before(async () => {
    // Two items per page: every listing below spans several pages.
    github = await startFakeGitHub({ pageSize: 2 });
    github.addOrg('acme', ORG);
    github.addOrg('elsewhere', OTHER_ORG);
    github.addOrg('x1', 1);
    github.addOrg('x2', 2);
    github.addUser(
      'tok-alice',
      'Alice',
      [1, 2, ORG],
      [
        { name: 'Site Reliability', slug: 'site-reliability', orgId: ORG },
        { name: 'devs', slug: 'devs', orgId: OTHER_ORG },
        { name: 'Readers', slug: 'readers', orgId: ORG },
      ],
    );
    github.addUser('tok-bob', 'bob', [OTHER_ORG]);
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/github', { type: 'github' });
    for (const name of ['sre', 'read', 'dev', 'alice-own', 'base']) {
      await t.ok('PUT', `sys/policies/acl/${name}`, {
        policy: `path "secret/data/${name}" { capabilities = ["read"] }`,
      });
    }
  });
  after(async () => {
    await t.stop();
    await github.close();
  });
  beforeEach(() => {
    github.requests.length = 0;
  });

  it('config asks GitHub for the organization id and shows it back with the token settings', async () => {
    const missing = await t.request('POST', 'auth/github/config', { body: { base_url: github.baseUrl } });
    assert.deepEqual([missing.status, missing.body.errors], [400, ['organization is a required parameter']]);
    const unknown = await t.request('POST', 'auth/github/config', {
      body: { organization: 'nope', base_url: github.baseUrl },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errors[0], /unable to fetch the organization_id/);

    const baseUrl = github.baseUrl.replace(/\/$/, '');
    await t.ok('POST', 'auth/github/config', {
      organization: 'acme',
      base_url: baseUrl,
      token_ttl: '1h',
      policies: 'base',
    });
    assert.deepEqual(
      github.requests.map((r) => [r.url, r.authorization]),
      [
        ['/orgs/nope', undefined],
        ['/orgs/acme', undefined],
      ],
    );
    const read = (await t.ok('GET', 'auth/github/config')).data;
    assert.equal(read.organization, 'acme');
    assert.equal(read.organization_id, ORG);
    assert.equal(read.base_url, github.baseUrl, 'with the trailing slash GitHub paths resolve against');
    assert.equal(read.token_ttl, 3600);
    assert.equal(read.token_max_ttl, 0);
    assert.deepEqual(read.token_policies, ['base']);
    assert.equal((await t.request('POST', 'auth/github/config', { body: { base_url: 'ftp://x' } })).status, 400);
  });

  it('logs a member in: policies of their teams in the org and of the user, metadata, an entity alias', async () => {
    // Policy maps on their own: src/auth/github/paths.test.ts.
    await t.ok('POST', 'auth/github/map/teams/Site Reliability', { value: 'sre' });
    await t.ok('POST', 'auth/github/map/teams/readers', { value: 'read, ' });
    await t.ok('POST', 'auth/github/map/teams/devs', { value: 'dev' });
    await t.ok('POST', 'auth/github/map/users/alice', { value: 'alice-own' });
    const res = await login('tok-alice');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { auth } = res.body;
    assert.deepEqual(auth.policies, ['alice-own', 'base', 'default', 'read', 'sre'], 'not dev: a team of another org');
    assert.deepEqual(auth.metadata, { username: 'Alice', org: 'acme' });
    assert.equal(auth.lease_duration, 3600);
    const self = (await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token })).body.data;
    assert.equal(self.display_name, 'github-Alice');
    assert.notEqual(self.entity_id, '');
    assert.ok(!JSON.stringify(self).includes('tok-alice'), 'the GitHub token is not kept on the Ward token');
    const read = await t.request('GET', 'secret/data/sre', { token: auth.client_token });
    assert.notEqual(read.status, 403, 'the team policy applies');

    // GitHub was asked with the user's token, page after page.
    const asked = github.requests.map((r) => r.url);
    assert.deepEqual(asked, [
      '/user',
      '/user/orgs?per_page=100',
      '/user/orgs?page=2&per_page=100',
      '/user/teams?per_page=100',
      '/user/teams?page=2&per_page=100',
    ]);
    assert.ok(github.requests.every((r) => r.authorization === 'Bearer tok-alice'));
    const again = (await login('tok-alice')).body.auth;
    const entity = (await t.request('GET', 'auth/token/lookup-self', { token: again.client_token })).body.data;
    assert.equal(entity.entity_id, self.entity_id, 'the same alias, the same entity');
  });

  it('refuses a token GitHub refuses and a user outside the organization with 403', async () => {
    const bad = await login('tok-unknown');
    assert.equal(bad.status, 403);
    const outsider = await login('tok-bob');
    assert.deepEqual([outsider.status, outsider.body.errors], [403, ['user is not part of required org']]);
    assert.equal((await login('')).status, 400);
  });

  it('checks membership by id: a renamed org still matches (with a warning), an impostor with its name does not', async () => {
    github.renameOrg(ORG, 'acme-renamed');
    const renamed = await login('tok-alice');
    assert.equal(renamed.status, 200);
    assert.match(renamed.body.warnings[0], /organization name has changed to "acme-renamed"/);
    github.addOrg('acme', 99);
    github.addUser('tok-mallory', 'mallory', [99]);
    assert.equal((await login('tok-mallory')).status, 403);
    github.renameOrg(ORG, 'acme');
  });

  it('answers 502 when GitHub cannot be reached, 400 without config, and 403 outside token_bound_cidrs', async () => {
    await t.ok('POST', 'sys/auth/gh2', { type: 'github' });
    assert.deepEqual((await login('tok-alice', 'gh2')).body.errors, ['configuration has not been set']);
    await t.ok('POST', 'auth/gh2/config', {
      organization: 'acme',
      organization_id: ORG,
      base_url: 'http://127.0.0.1:1/',
    });
    assert.equal((await login('tok-alice', 'gh2')).status, 502);

    await t.ok('POST', 'auth/gh2/config', { base_url: github.baseUrl, token_bound_cidrs: '10.0.0.0/8' });
    github.requests.length = 0;
    assert.equal((await login('tok-alice', 'gh2')).status, 403);
    assert.equal(github.requests.length, 0, 'GitHub is not asked for a client it would refuse anyway');
  });

  it('renews a token under the current config', async () => {
    const token = (await login('tok-alice')).body.auth.client_token;
    await t.ok('POST', 'auth/github/config', { token_ttl: '2h' });
    const renewed = await t.request('POST', 'auth/token/renew-self', { token });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.auth.lease_duration, 7200);
  });
});
