import assert from 'node:assert/strict';
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
    await t.ok('POST', 'sys/auth/gcp', { type: 'gcp' });
    await t.ok('POST', 'auth/gcp/config', { custom_endpoint: { api: google.endpoint } });
    await t.ok('PUT', 'sys/policies/acl/app', { policy: 'path "secret/data/app" { capabilities = ["read"] }' });
    // Roles and config paths on their own: src/auth/gcp/paths.test.ts.
    await t.ok('POST', 'auth/gcp/role/app', {
      type: 'iam',
      bound_service_accounts: APP,
      bound_projects: 'my-project-1',
      token_policies: 'app',
      token_ttl: '30m',
    });
  });
  after(async () => {
    await t.stop();
    await google.close();
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
    await t.ok('POST', 'auth/gcp/role/app', { token_ttl: '40m' });
    const renewed = await t.request('POST', 'auth/token/renew-self', { token });
    assert.equal(renewed.body.auth.lease_duration, 2400);
    await t.ok('POST', 'auth/gcp/role/app', { token_policies: 'app,other' });
    const refused = await t.request('POST', 'auth/token/renew-self', { token });
    assert.deepEqual([refused.status, refused.body.errors], [400, ['policies have changed, not renewing']]);
    await t.ok('POST', 'auth/gcp/role/app', { token_policies: 'app', token_ttl: '30m' });
  });

  it('answers 502 when Google cannot be reached', async () => {
    await t.ok('POST', 'auth/gcp/config', { custom_endpoint: { api: 'http://127.0.0.1:1' } });
    assert.equal((await login('app', jwtFor(APP))).status, 502);
    await t.ok('POST', 'auth/gcp/config', { custom_endpoint: { api: google.endpoint } });
  });

  it('a login at another mount path is not this mount: no token, 403 (hvac’s alternate mount point test)', async () => {
    await t.ok('POST', 'sys/auth/gcp-custom-path', { type: 'gcp' });
    const res = await t.request('POST', 'auth/gcp-elsewhere/login', { token: null, body: { role: 'app', jwt: 'x' } });
    assert.equal(res.status, 403);
  });
});
