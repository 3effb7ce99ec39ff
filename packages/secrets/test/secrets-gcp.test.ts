import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState } from './fakes/google-cloud-state.js';

// Issue 37: the `gcp` secrets engine against a wire-level fake of IAM, IAM credentials,
// Resource Manager and the OAuth token endpoint, through the official SDKs: rolesets create
// accounts and bind them, keys are leases whose revocation deletes them, tokens are minted
// with the JWT bearer grant or generateAccessToken.

const PROJECT = 'my-project-1';
const BINDINGS = `resource "//cloudresourcemanager.googleapis.com/projects/${PROJECT}" {
  roles = ["roles/viewer", "roles/storage.objectViewer"]
}`;

describe('GCP secrets engine', () => {
  let t: TestServer;
  let google: FakeGoogleCloud;
  const state = new FakeGoogleCloudState();
  const clock = new FakeClock(Date.now());
  const viewers = () => state.members(`projects/${PROJECT}`, 'roles/viewer');
  /** The fake accepts the token for API calls: it is one it issued. */
  const tokenWorks = async (token: string, email: string) =>
    (
      await fetch(`${google.endpoint}/v1/projects/-/serviceAccounts/${email}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).status === 200;

  before(async () => {
    const ward = state.addServiceAccount('ward-admin', 'ward-engine');
    state.addServiceAccount(PROJECT, 'existing-app');
    google = await startFakeGoogleCloud(state);
    t = await startTestServer({ clock });
    await t.ok('POST', 'sys/mounts/gcp', { type: 'gcp' });
    const e = google.endpoint;
    await t.ok('POST', 'gcp/config', {
      credentials: google.keyFile(ward),
      ttl: '1h',
      max_ttl: '2h',
      custom_endpoint: { iam: e, iamcredentials: e, crm: e },
    });
  });
  after(async () => {
    await t.stop();
    await google.close();
  });

  it('reads its config back without the key', async () => {
    const data = (await t.ok('GET', 'gcp/config')).data;
    assert.equal(data.ttl, 3600);
    assert.equal(data.max_ttl, 7200);
    assert.equal(data.service_account_email, 'ward-engine@ward-admin.iam.gserviceaccount.com');
    assert.equal(JSON.stringify(data).includes('PRIVATE KEY'), false);
    assert.equal((await t.request('POST', 'gcp/config', { body: { credentials: 'nope' } })).status, 400);
  });

  it('an access_token roleset creates and binds an account, and mints tokens with its key', async () => {
    await t.ok('POST', 'gcp/roleset/tokens', {
      project: PROJECT,
      secret_type: 'access_token',
      bindings: BINDINGS,
      token_scopes: 'https://www.googleapis.com/auth/cloud-platform',
    });
    const roleset = (await t.ok('GET', 'gcp/roleset/tokens')).data;
    const email: string = roleset.service_account_email;
    assert.match(email, /^vaulttokens-[a-z0-9]{10}@my-project-1\.iam\.gserviceaccount\.com$/);
    assert.deepEqual(roleset.bindings, {
      [`//cloudresourcemanager.googleapis.com/projects/${PROJECT}`]: ['roles/viewer', 'roles/storage.objectViewer'],
    });
    assert.ok(state.accounts.has(email));
    assert.deepEqual(viewers(), [`serviceAccount:${email}`]);
    assert.equal(state.account(email)?.keys.size, 1);
    const token = (await t.ok('GET', 'gcp/roleset/tokens/token')).data;
    assert.ok(token.token_ttl > 3000, JSON.stringify(token));
    assert.ok(await tokenWorks(token.token, email));
    assert.ok(await tokenWorks((await t.ok('POST', 'gcp/token/tokens')).data.token, email));
    // A key is refused for a token roleset.
    assert.equal((await t.request('GET', 'gcp/roleset/tokens/key')).status, 400);

    await t.ok('POST', 'gcp/roleset/tokens/rotate-key');
    assert.equal(state.account(email)?.keys.size, 1);
    await t.ok('POST', 'gcp/roleset/tokens/rotate');
    const rotated = (await t.ok('GET', 'gcp/roleset/tokens')).data.service_account_email;
    assert.notEqual(rotated, email);
    assert.equal(state.accounts.has(email), false, 'the old account is deleted');
    assert.deepEqual(viewers(), [`serviceAccount:${rotated}`]);

    await t.ok('DELETE', 'gcp/roleset/tokens');
    assert.equal(state.accounts.has(rotated), false);
    assert.deepEqual(viewers(), []);
  });

  it('keys are leases: revoking one deletes it in IAM', async () => {
    await t.ok('POST', 'gcp/roleset/keys', {
      project: PROJECT,
      secret_type: 'service_account_key',
      bindings: Buffer.from(BINDINGS).toString('base64'),
    });
    const email = (await t.ok('GET', 'gcp/roleset/keys')).data.service_account_email;
    assert.equal(state.account(email)?.keys.size, 0);
    const issued = await t.ok('POST', 'gcp/roleset/keys/key', { ttl: '30m' });
    assert.equal(issued.lease_duration, 1800);
    assert.equal(issued.renewable, true);
    const file = JSON.parse(Buffer.from(issued.data.private_key_data, 'base64').toString());
    assert.equal(file.client_email, email);
    assert.ok(state.account(email)?.keys.has(file.private_key_id));
    const capped = await t.ok('GET', 'gcp/key/keys?ttl=5h');
    assert.equal(capped.lease_duration, 7200, 'capped by max_ttl');
    assert.equal(state.account(email)?.keys.size, 2);

    await t.ok('PUT', 'sys/leases/revoke', { lease_id: issued.lease_id });
    assert.equal(state.account(email)?.keys.has(file.private_key_id), false);
    assert.equal(state.account(email)?.keys.size, 1);
    assert.equal((await t.ok('PUT', 'sys/leases/renew', { lease_id: capped.lease_id })).lease_duration, 3600);
    // Once the roleset has another account, its old keys are not renewed.
    await t.ok('POST', 'gcp/roleset/keys/rotate');
    const renewal = await t.request('PUT', 'sys/leases/renew', { body: { lease_id: capped.lease_id } });
    assert.equal(renewal.status, 400, JSON.stringify(renewal.body));
    await t.ok('DELETE', 'gcp/roleset/keys');
    // The account is gone with its keys; revoking the other lease still succeeds.
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: capped.lease_id });
  });

  it('static accounts bind an existing account and leave it when deleted', async () => {
    const email = `existing-app@${PROJECT}.iam.gserviceaccount.com`;
    await t.ok('POST', 'gcp/static-account/app', {
      service_account_email: email,
      secret_type: 'service_account_key',
      bindings: BINDINGS,
    });
    assert.deepEqual(viewers(), [`serviceAccount:${email}`]);
    const read = (await t.ok('GET', 'gcp/static-account/app')).data;
    assert.equal(read.service_account_project, PROJECT);
    const issued = await t.ok('GET', 'gcp/static-account/app/key');
    assert.equal(state.account(email)?.keys.size, 1);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: issued.lease_id });
    assert.equal(state.account(email)?.keys.size, 0);
    await t.ok('DELETE', 'gcp/static-account/app');
    assert.ok(state.accounts.has(email));
    assert.deepEqual(viewers(), []);

    await t.ok('POST', 'gcp/static-account/app-tokens', { service_account_email: email, token_scopes: 'a,b' });
    assert.ok(await tokenWorks((await t.ok('GET', 'gcp/static-account/app-tokens/token')).data.token, email));
    await t.ok('DELETE', 'gcp/static-account/app-tokens');
    assert.equal(state.account(email)?.keys.size, 0, 'the token key is deleted');
    const missing = await t.request('POST', 'gcp/static-account/x', {
      body: { service_account_email: `nobody@${PROJECT}.iam.gserviceaccount.com`, token_scopes: 'a' },
    });
    assert.equal(missing.status, 400);
  });

  it('impersonated accounts mint tokens through generateAccessToken', async () => {
    const email = `existing-app@${PROJECT}.iam.gserviceaccount.com`;
    await t.ok('POST', 'gcp/impersonated-account/imp', { service_account_email: email, token_scopes: 'x', ttl: '10m' });
    google.calls.length = 0;
    const token = (await t.ok('GET', 'gcp/impersonated-account/imp/token')).data;
    // The fake dates the token by the wall clock, Ward by its own: a few seconds apart at most.
    assert.ok(Math.abs(token.token_ttl - 600) < 30, JSON.stringify(token));
    assert.ok(await tokenWorks(token.token, email));
    assert.ok(google.calls.includes(`POST /v1/projects/-/serviceAccounts/${email}:generateAccessToken`));
    assert.deepEqual((await t.ok('LIST', 'gcp/impersonated-accounts')).data.keys, ['imp']);
  });

  it('binds folders, organizations and service accounts too, and unbinds them on delete', async () => {
    const target = `existing-app@${PROJECT}.iam.gserviceaccount.com`;
    const bindings = `
resource "//cloudresourcemanager.googleapis.com/folders/123" { roles = ["roles/browser"] }
resource "//cloudresourcemanager.googleapis.com/organizations/42" { roles = ["roles/viewer"] }
resource "//iam.googleapis.com/projects/${PROJECT}/serviceAccounts/${target}" { roles = ["roles/iam.serviceAccountUser"] }`;
    await t.ok('POST', 'gcp/roleset/wide', { project: PROJECT, bindings, secret_type: 'service_account_key' });
    const member = `serviceAccount:${(await t.ok('GET', 'gcp/roleset/wide')).data.service_account_email}`;
    assert.deepEqual(state.members('folders/123', 'roles/browser'), [member]);
    assert.deepEqual(state.members('organizations/42', 'roles/viewer'), [member]);
    const saPolicy = `projects/${PROJECT}/serviceAccounts/${target}`;
    assert.deepEqual(state.members(saPolicy, 'roles/iam.serviceAccountUser'), [member]);
    await t.ok('DELETE', 'gcp/roleset/wide');
    assert.deepEqual(state.members('folders/123', 'roles/browser'), []);
    assert.deepEqual(state.members('organizations/42', 'roles/viewer'), []);
    assert.deepEqual(state.members(saPolicy, 'roles/iam.serviceAccountUser'), []);
  });

  it('refuses bad rolesets with 400', async () => {
    const cases = [
      { project: PROJECT, bindings: 'resource {', token_scopes: 'a' },
      { project: PROJECT, bindings: 'resource "buckets/b" { roles = ["roles/viewer"] }', token_scopes: 'a' },
      { project: PROJECT, bindings: BINDINGS },
      { bindings: BINDINGS, token_scopes: 'a' },
      { project: PROJECT, bindings: BINDINGS, secret_type: 'password' },
    ];
    for (const body of cases)
      assert.equal((await t.request('POST', 'gcp/roleset/bad', { body })).status, 400, JSON.stringify(body));
  });

  it('answers 502 when Google fails, leaving no account behind', async () => {
    const before = state.accounts.size;
    google.failWith(503, /setIamPolicy/);
    try {
      const res = await t.request('POST', 'gcp/roleset/failing', {
        body: { project: PROJECT, bindings: BINDINGS, secret_type: 'service_account_key' },
      });
      assert.equal(res.status, 502, JSON.stringify(res.body));
    } finally {
      google.failWith(undefined);
    }
    assert.equal(state.accounts.size, before);
    assert.equal((await t.request('GET', 'gcp/roleset/failing')).status, 404);
  });

  it('an old account a rotation could not remove is retried until it is gone', async () => {
    await t.ok('POST', 'gcp/roleset/retry', {
      project: PROJECT,
      bindings: BINDINGS,
      secret_type: 'service_account_key',
    });
    const old = (await t.ok('GET', 'gcp/roleset/retry')).data.service_account_email;
    google.failWith(503, /^DELETE \/v1\/projects\/[^/]+\/serviceAccounts\/[^/]+$/);
    let rotated: { warnings?: string[] };
    try {
      rotated = await t.ok('POST', 'gcp/roleset/retry/rotate');
    } finally {
      google.failWith(undefined);
    }
    assert.match(rotated.warnings?.[0] ?? '', /was not removed .*retried every minute/);
    const current = (await t.ok('GET', 'gcp/roleset/retry')).data.service_account_email;
    assert.ok(state.accounts.has(old));
    assert.deepEqual(viewers(), [`serviceAccount:${current}`], 'its bindings went before the deletion failed');
    clock.advance(61_000);
    await t.server.core.scheduler.settled();
    assert.equal(state.accounts.has(old), false);
    await t.ok('DELETE', 'gcp/roleset/retry');
  });

  it('a key lease renews up to max_ttl after issue, and its expiry deletes the key', async () => {
    await t.ok('POST', 'gcp/roleset/expiring', {
      project: PROJECT,
      bindings: BINDINGS,
      secret_type: 'service_account_key',
    });
    const email = (await t.ok('GET', 'gcp/roleset/expiring')).data.service_account_email;
    const issued = await t.ok('GET', 'gcp/roleset/expiring/key');
    assert.equal(issued.lease_duration, 3600);
    const expire = async (ms: number) => {
      clock.advance(ms);
      await t.server.core.expiration.settled();
    };
    await expire(3_000_000);
    const renew = async () =>
      (await t.ok('PUT', 'sys/leases/renew', { lease_id: issued.lease_id, increment: 3600 })).lease_duration;
    assert.equal(await renew(), 3600);
    await expire(3_500_000);
    assert.equal(await renew(), 700, 'capped at 2h after issue');
    assert.equal(state.account(email)?.keys.size, 1);
    await expire(701_000);
    assert.equal(state.account(email)?.keys.size, 0, 'deleted when the lease expired');
    await t.ok('DELETE', 'gcp/roleset/expiring');
  });

  it('rotate-root replaces the engine key and deletes the old one', async () => {
    const ward = state.account('ward-engine@ward-admin.iam.gserviceaccount.com');
    const [oldKey] = [...(ward?.keys.keys() ?? [])];
    const rotated = (await t.ok('POST', 'gcp/config/rotate-root')).data.private_key_id;
    assert.notEqual(rotated, oldKey);
    assert.deepEqual([...(ward?.keys.keys() ?? [])], [rotated]);
    // The engine works with the new key.
    await t.ok('POST', 'gcp/static-account/after', {
      service_account_email: `existing-app@${PROJECT}.iam.gserviceaccount.com`,
      token_scopes: 'a',
    });
    await t.ok('DELETE', 'gcp/static-account/after');
  });
});
