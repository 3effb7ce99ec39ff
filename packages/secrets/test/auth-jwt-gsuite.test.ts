import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState } from './fakes/google-cloud-state.js';
import { type JwksServer, startJwksServer } from './fakes/jwks-server.js';

// Issue 31 point 2: the jwt method's `gsuite` provider_config. At login the user's Google
// Workspace groups (recursively, to groups_recurse_max_depth) and custom schema fields are fetched
// from the Admin SDK Directory API of the fake Google, by a service account acting for an admin.

const ISSUER = 'https://accounts.google.test';
const ADMIN = 'admin@example.test';

describe('jwt login with provider_config gsuite: Workspace groups and user custom schemas', () => {
  let google: FakeGoogleCloud;
  let jwks: JwksServer;
  let t: TestServer;
  let keyFile = '';
  const configure = (settings: Record<string, unknown>) =>
    t.request('POST', 'auth/jwt/config', {
      body: {
        jwks_url: jwks.url,
        bound_issuer: ISSUER,
        provider_config: {
          provider: 'gsuite',
          gsuite_service_account: keyFile,
          gsuite_admin_impersonate: ADMIN,
          gsuite_admin_endpoint: google.endpoint,
          ...settings,
        },
      },
    });
  const login = async (email: string) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await jwks.sign({ iss: ISSUER, aud: 'ward', sub: email, email, iat: now, exp: now + 300 });
    return t.request('POST', 'auth/jwt/login', { token: null, body: { role: 'ws', jwt } });
  };

  before(async () => {
    const state = new FakeGoogleCloudState();
    google = await startFakeGoogleCloud(state);
    keyFile = google.keyFile(state.addServiceAccount('acme-prod', 'ward-directory'));
    const ws = google.workspace;
    ws.admins.add(ADMIN);
    ws.pageSize = 1; // every listing takes several pages
    ws.groups.set('eng@example.test', ['alice@example.test', 'bob@example.test']);
    ws.groups.set('oncall@example.test', ['alice@example.test']);
    ws.groups.set('tech@example.test', ['eng@example.test']);
    ws.groups.set('all@example.test', ['tech@example.test']);
    ws.users.set('alice@example.test', { Employment: { costCenter: 'cc-42', level: 3 }, Other: { x: 'y' } });
    jwks = await startJwksServer();
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    await t.ok('POST', 'auth/jwt/role/ws', {
      role_type: 'jwt',
      bound_audiences: 'ward',
      user_claim: 'email',
      groups_claim: 'groups',
      claim_mappings: { costCenter: 'cost_center' },
      token_policies: 'ws',
    });
    const accessor = (await t.ok('GET', 'sys/auth')).data['jwt/'].accessor;
    for (const [name, alias] of [
      ['eng', 'eng@example.test'],
      ['tech', 'tech@example.test'],
      ['all', 'all@example.test'],
    ] as const) {
      const group = (await t.ok('POST', 'identity/group', { name, type: 'external', policies: [name] })).data.id;
      await t.ok('POST', 'identity/group-alias', { name: alias, mount_accessor: accessor, canonical_id: group });
    }
  });
  after(async () => {
    await t?.stop();
    await jwks?.close();
    await google?.close();
  });

  it('fetches the groups to groups_recurse_max_depth and the custom schema fields as claims', async () => {
    assert.equal(
      (
        await configure({
          fetch_groups: true,
          fetch_user_info: true,
          user_custom_schemas: 'Employment',
          groups_recurse_max_depth: 1,
        })
      ).status,
      204,
    );
    const shown = (await t.ok('GET', 'auth/jwt/config')).data.provider_config;
    assert.equal(shown.gsuite_service_account, undefined, 'the key is never shown');
    const res = await login('alice@example.test');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['eng', 'tech'], 'eng, and tech one level up; not all');
    assert.equal(res.body.auth.metadata.cost_center, 'cc-42');
    assert.ok(google.calls.some((c) => c === 'GET /admin/directory/v1/users/alice%40example.test'));
  });

  it('follows the nesting no further than asked, and only fetches what is enabled', async () => {
    await configure({ fetch_groups: true, groups_recurse_max_depth: 3 });
    const deep = await login('bob@example.test');
    assert.equal(deep.status, 200, JSON.stringify(deep.body));
    assert.deepEqual(deep.body.auth.identity_policies, ['all', 'eng', 'tech']);
    assert.equal(deep.body.auth.metadata.cost_center, undefined);
    await configure({ fetch_groups: true, groups_recurse_max_depth: 0 });
    assert.deepEqual((await login('bob@example.test')).body.auth.identity_policies, ['eng']);
  });

  it('answers 502 when the directory refuses (an account not acting for an admin), 400 for a bad key', async () => {
    await configure({ fetch_groups: true, gsuite_admin_impersonate: 'nobody@example.test' });
    const refused = await login('alice@example.test');
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    const bad = await configure({ fetch_groups: true, gsuite_service_account: '{"type": "service_account"}' });
    assert.equal(bad.status, 400);
  });
});
