import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '@ward/base';
import { runWardInProcess, tempHome } from '../src/cli/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState } from './fakes/google-cloud-state.js';

// Issue 37: `ward login -method=gcp` through the real CLI binary: a JWT signed by the fake IAM
// credentials API (signJwt, called with the key file's token) and verified by the server.

describe('ward login -method=gcp', () => {
  let t: TestServer;
  let google: FakeGoogleCloud;
  let keyPath = '';
  let home = '';
  const APP = 'app@my-project-1.iam.gserviceaccount.com';
  const envFor = async (extra: Record<string, string> = {}) => ({
    VAULT_ADDR: t.url,
    HOME: await tempHome(),
    WARD_GCP_IAMCREDENTIALS_ENDPOINT: google.endpoint,
    ...extra,
  });

  before(async () => {
    const state = new FakeGoogleCloudState();
    const app = state.addServiceAccount('my-project-1', 'app');
    google = await startFakeGoogleCloud(state);
    home = await tempHome();
    keyPath = join(home, 'app.json');
    await writeFile(keyPath, google.keyFile(app));
    t = await startTestServer({ clock: systemClock });
    for (const path of ['gcp', 'gcp-team']) {
      await t.ok('POST', `sys/auth/${path}`, { type: 'gcp' });
      await t.ok('POST', `auth/${path}/config`, { custom_endpoint: { api: google.endpoint } });
      await t.ok('POST', `auth/${path}/role/app`, { type: 'iam', bound_service_accounts: APP, token_policies: 'app' });
    }
  });
  after(async () => {
    await t?.stop();
    await google?.close();
  });

  it('signs a JWT with credentials=@file, logs in and stores the token', async () => {
    const env = await envFor();
    const run = await runWardInProcess(
      ['login', '-method=gcp', '-format=json', 'role=app', `credentials=@${keyPath}`],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const { auth } = JSON.parse(run.stdout);
    assert.deepEqual(auth.token_policies, ['app', 'default']);
    assert.equal(auth.metadata.service_account_email, APP);
    assert.equal((await readFile(join(env.HOME, '.vault-token'), 'utf8')).trim(), auth.client_token);
    assert.ok(
      google.calls.some((c) => c.includes(':signJwt')),
      JSON.stringify(google.calls),
    );
  });

  it('reads GOOGLE_APPLICATION_CREDENTIALS, and logs in at mount=…', async () => {
    const env = await envFor({ GOOGLE_APPLICATION_CREDENTIALS: keyPath });
    const run = await runWardInProcess(['login', '-method=gcp', '-format=json', 'role=app', 'mount=gcp-team'], env);
    assert.equal(run.code, 0, run.stderr);
    const token = JSON.parse(run.stdout).auth.client_token;
    const self = await t.request('GET', 'auth/token/lookup-self', { token });
    assert.equal(self.body.data.path, 'auth/gcp-team/login');
  });

  it("refuses a JWT beyond the role's max_jwt_exp, and a forged one, with one line each", async () => {
    const env = await envFor();
    const long = await runWardInProcess(
      ['login', '-method=gcp', 'role=app', `credentials=@${keyPath}`, 'jwt_exp=2h'],
      env,
    );
    assert.equal(long.code, 2);
    const reasons = long.stderr.split('\n').filter((line) => line.startsWith('* '));
    assert.equal(reasons.length, 1, long.stderr);
    assert.match(reasons[0] ?? '', /max_jwt_exp/);
    const forged = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vcGUifQ.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const run = await runWardInProcess(['login', '-method=gcp', 'role=app', `jwt=${forged}`], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Code: 40[03]/);
    await assert.rejects(readFile(join(env.HOME, '.vault-token')), { code: 'ENOENT' });
  });

  it('says in one line what is missing', async () => {
    const env = await envFor();
    const none = await runWardInProcess(['login', '-method=gcp', 'role=app'], env);
    assert.equal(none.code, 2);
    assert.deepEqual(none.stderr.trim().split('\n').length, 1, none.stderr);
    assert.match(none.stderr, /^Error: could not obtain a service account: give credentials=@key.json/);
    const noRole = await runWardInProcess(['login', '-method=gcp', `credentials=@${keyPath}`], env);
    assert.equal(noRole.code, 2);
    assert.match(noRole.stderr, /needs role=/);
  });
});
