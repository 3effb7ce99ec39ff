import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState, type FakeInstance } from './fakes/google-cloud-state.js';

// Issue 37: `gce` roles. A Compute Engine instance logs in with its identity token (signed by
// Google, checked with jose against the fake's oauth2/v3/certs); Ward looks the instance up in
// Compute Engine, its groups and its service account in IAM, as its configured service account
// (OAuth JWT bearer grant at the key file's token_uri), all against the wire-level fake.

const NOW = Date.parse('2030-01-01T00:00:00Z') / 1000;

describe('GCP auth method (gce roles)', () => {
  let t: TestServer;
  let google: FakeGoogleCloud;
  let web: FakeInstance;
  let batch: FakeInstance;
  const state = new FakeGoogleCloudState();
  const login = (role: string, jwt: string) =>
    t.request('POST', 'auth/gcp/login', { token: null, body: { role, jwt } });
  const tokenOf = (instance: FakeInstance, role = 'web', claims: { aud?: string; iat?: number; exp?: number } = {}) =>
    google.identityToken(instance, { aud: `http://vault/${role}`, iat: NOW - 10, exp: NOW + 3000, ...claims });

  before(async () => {
    const ward = state.addServiceAccount('ward-admin', 'ward-auth');
    const runner = state.addServiceAccount('my-project-1', 'runner');
    state.addServiceAccount('my-project-1', 'other');
    state.ancestry.set('my-project-1', [
      ['folder', '42'],
      ['organization', '7'],
    ]);
    web = state.addInstance({
      project: 'my-project-1',
      zone: 'us-central1-a',
      name: 'web-1',
      labels: { team: 'web', env: 'prod' },
      serviceAccount: runner.email,
    });
    batch = state.addInstance({
      project: 'my-project-1',
      zone: 'europe-west1-b',
      name: 'batch-1',
      labels: { team: 'batch' },
      serviceAccount: runner.email,
    });
    state.groups.push(
      { project: 'my-project-1', name: 'web-group', zone: 'us-central1-a', members: ['web-1'] },
      { project: 'my-project-1', name: 'batch-group', region: 'europe-west1', members: ['batch-1'] },
    );
    google = await startFakeGoogleCloud(state);
    t = await startTestServer({ clock: new FakeClock('2030-01-01T00:00:00Z') });
    await t.ok('POST', 'sys/auth/gcp', { type: 'gcp' });
    const endpoint = google.endpoint;
    await t.ok('POST', 'auth/gcp/config', {
      credentials: google.keyFile(ward),
      custom_endpoint: { api: endpoint, iam: endpoint, crm: endpoint, compute: endpoint },
    });
    await t.ok('POST', 'auth/gcp/role/web', {
      type: 'gce',
      bound_projects: 'my-project-1',
      bound_zones: 'us-central1-a',
      bound_labels: 'team:web',
      bound_instance_groups: 'web-group',
      bound_service_accounts: runner.email,
      add_group_aliases: true,
      token_policies: 'web',
    });
  });
  after(async () => {
    await t.stop();
    await google.close();
  });

  it('logs a bound instance in: looked up in Compute and IAM as the configured account', async () => {
    google.calls.length = 0;
    const res = await login('web', await tokenOf(web));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { auth } = res.body;
    assert.deepEqual(auth.policies, ['default', 'web']);
    assert.deepEqual(auth.metadata, {
      instance_creation_timestamp: '1700000000',
      instance_id: web.id,
      instance_name: 'web-1',
      project_id: 'my-project-1',
      project_number: '123456789012',
      role: 'web',
      service_account_id: state.account('runner@my-project-1.iam.gserviceaccount.com')?.uniqueId,
      service_account_email: 'runner@my-project-1.iam.gserviceaccount.com',
      zone: 'us-central1-a',
    });
    assert.deepEqual(google.calls, [
      'GET /oauth2/v3/certs',
      'POST /token',
      'GET /compute/v1/projects/my-project-1/zones/us-central1-a/instances/web-1',
      'GET /compute/v1/projects/my-project-1/aggregated/instanceGroups',
      'POST /compute/v1/projects/my-project-1/zones/us-central1-a/instanceGroups/web-group/listInstances',
      'GET /v1/projects/-/serviceAccounts/runner@my-project-1.iam.gserviceaccount.com',
      'POST /v1/projects/my-project-1:getAncestry',
    ]);
    const self = (await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token })).body.data;
    assert.equal(self.display_name, 'gcp-web-1');
    const alias = await t.ok('GET', `identity/entity/id/${self.entity_id}`);
    assert.equal(alias.data.aliases[0].name, web.id);
    // The second login reuses the account's access token.
    google.calls.length = 0;
    assert.equal((await login('web', await tokenOf(web))).status, 200);
    assert.ok(!google.calls.includes('POST /token'));
    assert.ok(!google.calls.includes('GET /oauth2/v3/certs'), "Google's keys are kept a few minutes");
  });

  it('matches regions and regional instance groups', async () => {
    await t.ok('POST', 'auth/gcp/role/batch', {
      type: 'gce',
      bound_regions: 'europe-west1',
      bound_instance_groups: 'batch-group',
      bound_labels: 'team:batch',
    });
    assert.equal((await login('batch', await tokenOf(batch, 'batch'))).status, 200);
    const wrongRegion = await login('batch', await tokenOf(web, 'batch'));
    assert.equal(wrongRegion.status, 403);
  });

  it('refuses with 403 forged, expired, misaddressed tokens and instances outside the bindings', async () => {
    const good = await tokenOf(web);
    const [h, p] = good.split('.');
    const claims = JSON.parse(Buffer.from(p as string, 'base64url').toString());
    claims.google.compute_engine.instance_name = 'batch-1';
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${good.split('.')[2]}`;
    const cases: [string, string, string?][] = [
      ['forged claims', forged],
      [
        'unknown key',
        await google.identityToken(web, { aud: 'http://vault/web', iat: NOW, exp: NOW + 60 }, { kid: 'x' }),
      ],
      ['expired', await tokenOf(web, 'web', { iat: NOW - 7200, exp: NOW - 3600 })],
      ['other audience', await tokenOf(web, 'web', { aud: 'http://vault/batch' })],
      ['wrong zone and labels', await tokenOf(batch)],
      ['instance not found', await tokenOf({ ...web, name: 'gone' })],
      ['instance id differs', await tokenOf({ ...web, id: '1' })],
    ];
    for (const [label, jwt] of cases) assert.equal((await login('web', jwt)).status, 403, label);
    await t.ok('POST', 'auth/gcp/role/web/labels', { add: 'env:dev' });
    const label = await login('web', good);
    assert.deepEqual([label.status, label.body.errors], [403, ['instance missing bound label "env:dev"']]);
    await t.ok('POST', 'auth/gcp/role/web/labels', { add: 'env:prod' });
    await t.ok('POST', 'auth/gcp/role/web', { bound_service_accounts: 'other@my-project-1.iam.gserviceaccount.com' });
    assert.equal((await login('web', good)).status, 403);
    await t.ok('POST', 'auth/gcp/role/web', { bound_service_accounts: 'runner@my-project-1.iam.gserviceaccount.com' });
    assert.equal((await login('web', good)).status, 200);
  });

  it('renewal checks the instance again: a label it lost stops renewal', async () => {
    const token = (await login('web', await tokenOf(web))).body.auth.client_token;
    assert.equal((await t.request('POST', 'auth/token/renew-self', { token })).status, 200);
    web.labels = { env: 'prod' };
    try {
      const refused = await t.request('POST', 'auth/token/renew-self', { token });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
    } finally {
      web.labels = { team: 'web', env: 'prod' };
    }
  });

  it('an iam role takes an instance token as its service account (allow_gce_inference)', async () => {
    const runner = 'runner@my-project-1.iam.gserviceaccount.com';
    await t.ok('POST', 'auth/gcp/role/sa', {
      type: 'iam',
      bound_service_accounts: runner,
      bound_projects: 'my-project-1',
    });
    assert.equal((await t.ok('GET', 'auth/gcp/role/sa')).data.allow_gce_inference, true);
    const res = await login('sa', await tokenOf(web, 'sa'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.service_account_email, runner);
    await t.ok('POST', 'auth/gcp/role/sa', { bound_projects: 'elsewhere' });
    assert.equal((await login('sa', await tokenOf(web, 'sa'))).status, 403);
    await t.ok('POST', 'auth/gcp/role/sa', { bound_projects: 'my-project-1', allow_gce_inference: false });
    const refused = await login('sa', await tokenOf(web, 'sa'));
    assert.deepEqual(refused.body.errors, ['Got GCE token but IAM role "sa" does not allow GCE inference']);
  });

  it('an iam login takes a JWT signed through IAM credentials signJwt', async () => {
    const runner = 'runner@my-project-1.iam.gserviceaccount.com';
    await t.ok('POST', 'auth/gcp/role/signer', { type: 'iam', bound_service_accounts: runner });
    const signJwt = async (claims: object) => {
      const res = await fetch(`${google.endpoint}/v1/projects/-/serviceAccounts/${runner}:signJwt`, {
        method: 'POST',
        headers: { authorization: `Bearer ${google.issueToken(runner)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ payload: JSON.stringify(claims) }),
      });
      return ((await res.json()) as { signedJwt: string }).signedJwt;
    };
    const res = await login('signer', await signJwt({ sub: runner, aud: 'vault/signer', exp: NOW + 600 }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.service_account_email, runner);
    const expired = await login('signer', await signJwt({ sub: runner, aud: 'vault/signer', exp: NOW - 5 }));
    assert.equal(expired.status, 403);
  });

  it("config/rotate-root replaces the method's key and deletes the old one", async () => {
    const ward = state.account('ward-auth@ward-admin.iam.gserviceaccount.com');
    const [oldKey] = [...(ward?.keys.keys() ?? [])];
    const rotated = (await t.ok('POST', 'auth/gcp/config/rotate-root')).data.private_key_id;
    assert.notEqual(rotated, oldKey);
    assert.deepEqual([...(ward?.keys.keys() ?? [])], [rotated]);
    assert.equal((await t.ok('GET', 'auth/gcp/config')).data.private_key_id, rotated);
    assert.equal((await login('web', await tokenOf(web))).status, 200, 'logins go on with the new key');
  });

  it('answers 502 when Google fails', async () => {
    const jwt = await tokenOf(web);
    google.failWith(503);
    try {
      const res = await login('web', jwt);
      assert.equal(res.status, 502, JSON.stringify(res.body));
    } finally {
      google.failWith(undefined);
    }
  });
});
