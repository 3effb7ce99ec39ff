import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState } from './fakes/google-cloud-state.js';

// Issue 18: hvac's v1 test_integration enables a `gcp` auth method. Ward's has the `iam` roles:
// a service account logs in with a JWT it signed, checked against the keys Google publishes for it.

const APP = 'app@my-project-1.iam.gserviceaccount.com';
const OTHER = 'other@other-project.iam.gserviceaccount.com';
const NOW = Date.parse('2030-01-01T00:00:00Z') / 1000;

describe('GCP auth method (iam roles)', () => {
  let t: TestServer;
  let google: FakeGoogleCloud;
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const login = (role: string, jwt: string) =>
    t.request('POST', 'auth/gcp/login', { token: null, body: { role, jwt } });
  const jwtFor = (email: string, claims: Record<string, unknown> = {}, header?: Record<string, unknown>) =>
    google.signJwt(email, { sub: email, aud: 'vault/app', exp: NOW + 600, ...claims }, header);

  before(async () => {
    const state = new FakeGoogleCloudState();
    state.addServiceAccount('my-project-1', 'app');
    state.addServiceAccount('other-project', 'other');
    google = await startFakeGoogleCloud(state);
    t = await startTestServer({ clock: new FakeClock('2030-01-01T00:00:00Z') });
    await ok('POST', 'sys/auth/gcp', { type: 'gcp' });
    await ok('POST', 'auth/gcp/config', { custom_endpoint: { api: google.endpoint } });
    await ok('PUT', 'sys/policies/acl/app', { policy: 'path "secret/data/app" { capabilities = ["read"] }' });
  });
  after(async () => {
    await t.stop();
    await google.close();
  });

  it('keeps iam roles; refuses roles without a type or service accounts, and a changed type', async () => {
    await ok('POST', 'auth/gcp/role/app', {
      type: 'iam',
      bound_service_accounts: APP,
      bound_projects: 'my-project-1',
      token_policies: 'app',
      token_ttl: '30m',
    });
    const role = (await ok('GET', 'auth/gcp/role/app')).data;
    assert.deepEqual(role.bound_service_accounts, [APP]);
    assert.equal(role.max_jwt_exp, 900);
    assert.equal(role.token_ttl, 1800);
    assert.deepEqual((await ok('LIST', 'auth/gcp/roles')).data.keys, ['app']);
    const refused = [
      { type: 'iam' },
      { bound_service_accounts: APP },
      { type: 'hvac', bound_service_accounts: APP },
      { type: 'iam', bound_service_accounts: `*,${APP}` },
      { type: 'iam', bound_service_accounts: APP, bound_zones: 'us-central1-a' },
      { type: 'iam', bound_service_accounts: APP, max_jwt_exp: '2h' },
    ];
    for (const body of refused) {
      assert.equal((await t.request('POST', 'auth/gcp/role/bad', { body })).status, 400, JSON.stringify(body));
    }
    const changed = await t.request('POST', 'auth/gcp/role/app', { body: { type: 'gce' } });
    assert.deepEqual(changed.body.errors, ['role type cannot be changed for an existing role']);
    assert.deepEqual((await ok('GET', 'auth/gcp/config')).data, { custom_endpoint: { api: google.endpoint } });
    // The established method has no delete of its config.
    assert.equal((await t.request('DELETE', 'auth/gcp/config')).status, 405);
  });

  it('keeps credentials for its API calls, reads back only the account and key id, refuses what is not a key file', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      type: 'service_account',
      project_id: 'my-project-1',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: 'ward@my-project-1.iam.gserviceaccount.com',
      client_id: '123',
    };
    await ok('POST', 'auth/gcp/config', { credentials: JSON.stringify(key) });
    const read = (await ok('GET', 'auth/gcp/config')).data;
    assert.deepEqual(read, {
      client_email: key.client_email,
      client_id: '123',
      private_key_id: 'k1',
      project_id: 'my-project-1',
      custom_endpoint: { api: google.endpoint },
    });
    for (const credentials of ['some invalid JWT', JSON.stringify({ ...key, private_key: 'x' }), '[]']) {
      const res = await t.request('POST', 'auth/gcp/config', { body: { credentials } });
      assert.equal(res.status, 400, credentials);
    }
    await ok('POST', 'auth/gcp/config', { credentials: '' });
    assert.equal((await ok('GET', 'auth/gcp/config')).data.client_email, undefined);
  });

  it("edits an iam role's service accounts and a gce role's labels in place", async () => {
    await ok('POST', 'auth/gcp/role/edit-iam', { type: 'iam', bound_service_accounts: APP });
    await ok('POST', 'auth/gcp/role/edit-iam/service-accounts', { add: [OTHER], remove: ['nobody'] });
    assert.deepEqual((await ok('GET', 'auth/gcp/role/edit-iam')).data.bound_service_accounts, [APP, OTHER]);
    await ok('POST', 'auth/gcp/role/edit-iam/service-accounts', { remove: APP });
    assert.deepEqual((await ok('GET', 'auth/gcp/role/edit-iam')).data.bound_service_accounts, [OTHER]);
    const empty = await t.request('POST', 'auth/gcp/role/edit-iam/service-accounts', { body: {} });
    assert.deepEqual(empty.body.errors, ['must provide at least one value to add or remove']);
    const wrong = await t.request('POST', 'auth/gcp/role/edit-iam/labels', { body: { add: 'a:b' } });
    assert.equal(wrong.status, 400);

    await ok('POST', 'auth/gcp/role/edit-gce', { type: 'gce', project_id: 'my-project-1', bound_labels: 'team:a' });
    await ok('POST', 'auth/gcp/role/edit-gce/labels', { add: ['env:prod', 'team:b'] });
    let gce = (await ok('GET', 'auth/gcp/role/edit-gce')).data;
    assert.deepEqual(gce.bound_labels, { team: 'b', env: 'prod' });
    assert.deepEqual(gce.bound_projects, ['my-project-1']);
    await ok('POST', 'auth/gcp/role/edit-gce/labels', { remove: 'team' });
    gce = (await ok('GET', 'auth/gcp/role/edit-gce')).data;
    assert.deepEqual(gce.bound_labels, { env: 'prod' });
    const bad = await t.request('POST', 'auth/gcp/role/edit-gce/labels', { body: { add: 'novalue' } });
    assert.equal(bad.status, 400);
    const groups = await t.request('POST', 'auth/gcp/role/edit-gce', { body: { bound_instance_groups: 'g' } });
    assert.deepEqual(groups.body.errors, [
      'region or zone information must be specified if an instance group is given',
    ]);
    await ok('DELETE', 'auth/gcp/role/edit-iam');
    await ok('DELETE', 'auth/gcp/role/edit-gce');
  });

  it('logs a bound service account in with a JWT it signed', async () => {
    google.calls.length = 0;
    const res = await login('app', jwtFor(APP));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { auth } = res.body;
    assert.deepEqual(auth.policies, ['app', 'default']);
    assert.equal(auth.lease_duration, 1800);
    assert.deepEqual(auth.metadata, { service_account_email: APP, project_id: 'my-project-1', role: 'app' });
    assert.deepEqual(google.calls, [`GET /service_accounts/v1/metadata/x509/${encodeURIComponent(APP)}`]);
    const self = (await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token })).body.data;
    assert.equal(self.display_name, `gcp-${APP}`);
  });

  it('refuses with 403 a JWT that fails any check, and with 400 what is not a JWT', async () => {
    const refusals: [string, string][] = [
      ['unbound account', jwtFor(OTHER)],
      ['other audience', jwtFor(APP, { aud: 'vault/other' })],
      ['expired', jwtFor(APP, { exp: NOW - 1 })],
      ['exp too far ahead', jwtFor(APP, { exp: NOW + 3600 })],
      ['sub is not the signer', google.signJwt(OTHER, { sub: APP, aud: 'vault/app', exp: NOW + 60 })],
      ['unknown key id', jwtFor(APP, {}, { kid: 'nope' })],
      ['alg none', jwtFor(APP, {}, { alg: 'none' })],
    ];
    const tampered = jwtFor(APP).split('.');
    tampered[1] = Buffer.from(JSON.stringify({ sub: APP, aud: 'vault/app', exp: NOW + 800 })).toString('base64url');
    refusals.push(['tampered claims', tampered.join('.')]);
    for (const [label, jwt] of refusals) assert.equal((await login('app', jwt)).status, 403, label);
    const unbound = await login('app', jwtFor(OTHER));
    assert.deepEqual(unbound.body.errors, [`service account ${OTHER} is not authorized for role`]);
    assert.equal((await login('app', 'not.a-jwt')).status, 400);
    assert.equal((await login('nope', jwtFor(APP))).status, 400);
  });

  it('renews under the role as it is now; changed policies stop renewal', async () => {
    const token = (await login('app', jwtFor(APP))).body.auth.client_token;
    await ok('POST', 'auth/gcp/role/app', { token_ttl: '40m' });
    const renewed = await t.request('POST', 'auth/token/renew-self', { token });
    assert.equal(renewed.body.auth.lease_duration, 2400);
    await ok('POST', 'auth/gcp/role/app', { token_policies: 'app,other' });
    const refused = await t.request('POST', 'auth/token/renew-self', { token });
    assert.deepEqual([refused.status, refused.body.errors], [400, ['policies have changed, not renewing']]);
    await ok('POST', 'auth/gcp/role/app', { token_policies: 'app', token_ttl: '30m' });
  });

  it('answers 502 when Google cannot be reached', async () => {
    await ok('POST', 'auth/gcp/config', { custom_endpoint: { api: 'http://127.0.0.1:1' } });
    assert.equal((await login('app', jwtFor(APP))).status, 502);
    await ok('POST', 'auth/gcp/config', { custom_endpoint: { api: google.endpoint } });
  });

  it('a login at another mount path is not this mount: no token, 403 (hvac’s alternate mount point test)', async () => {
    await ok('POST', 'sys/auth/gcp-custom-path', { type: 'gcp' });
    const res = await t.request('POST', 'auth/gcp-elsewhere/login', { token: null, body: { role: 'app', jwt: 'x' } });
    assert.equal(res.status, 403);
  });
});
