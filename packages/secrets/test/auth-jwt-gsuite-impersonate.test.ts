import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FakeGoogleCloud, startFakeGoogleCloud } from './fakes/google-cloud.js';
import { FakeGoogleCloudState } from './fakes/google-cloud-state.js';
import { type JwksServer, startJwksServer } from './fakes/jwks-server.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 31 (JWT, gsuite): `impersonate_principal` without a key. bin/ward runs with Application
// Default Credentials from the fake Google's metadata server (as on a VM); at login it has IAM
// Credentials `signJwt` sign the delegation assertion as the principal (`sub` the admin), trades
// it for a token, and asks the Admin SDK Directory API for the user's groups.

const ROOT = 'root-gsuite-impersonate';
const ISSUER = 'https://accounts.google.test';
const ADMIN = 'admin@example.test';

describe('jwt gsuite with impersonate_principal (no key), through bin/ward', () => {
  let google: FakeGoogleCloud;
  let jwks: JwksServer;
  let dev: DevWard;
  let home = '';
  let principal = '';
  const configure = (settings: Record<string, unknown>) =>
    dev.call('POST', 'auth/jwt/config', {
      jwks_url: jwks.url,
      bound_issuer: ISSUER,
      provider_config: {
        provider: 'gsuite',
        impersonate_principal: principal,
        gsuite_admin_impersonate: ADMIN,
        fetch_groups: true,
        gsuite_admin_endpoint: google.endpoint,
        gsuite_iam_endpoint: google.endpoint,
        gsuite_token_endpoint: `${google.endpoint}/token`,
        ...settings,
      },
    });
  const login = async (email: string) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await jwks.sign({ iss: ISSUER, aud: 'ward', sub: email, email, iat: now, exp: now + 300 });
    return dev.call('POST', 'auth/jwt/login', { role: 'ws', jwt }, null);
  };

  before(async () => {
    const state = new FakeGoogleCloudState();
    google = await startFakeGoogleCloud(state);
    google.metadataAccount = state.addServiceAccount('acme-prod', 'ward-runner').email;
    principal = state.addServiceAccount('acme-prod', 'ward-directory').email;
    google.workspace.admins.add(ADMIN);
    google.workspace.groups.set('eng@example.test', ['alice@example.test']);
    jwks = await startJwksServer();
    home = await mkdtemp(join(tmpdir(), 'ward-adc-home-'));
    dev = await startDevWard(ROOT, [], {
      GCE_METADATA_HOST: new URL(google.endpoint).host,
      METADATA_SERVER_DETECTION: 'assume-present',
      GOOGLE_APPLICATION_CREDENTIALS: '',
      HOME: home,
    });
    await dev.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    await dev.ok('POST', 'auth/jwt/role/ws', {
      role_type: 'jwt',
      bound_audiences: 'ward',
      user_claim: 'email',
      groups_claim: 'groups',
    });
    const accessor = (await dev.ok('GET', 'sys/auth')).data['jwt/'].accessor;
    const group = (await dev.ok('POST', 'identity/group', { name: 'eng', type: 'external', policies: ['eng'] })).data
      .id;
    await dev.ok('POST', 'identity/group-alias', {
      name: 'eng@example.test',
      mount_accessor: accessor,
      canonical_id: group,
    });
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await jwks?.close();
    await google?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('signs the delegation assertion with IAM signJwt as the principal, and reads the groups', async () => {
    assert.equal((await configure({})).status, 204);
    const res = await login('alice@example.test');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['eng']);
    const signJwt = `POST /v1/projects/-/serviceAccounts/${encodeURIComponent(principal)}:signJwt`;
    assert.ok(google.calls.includes(signJwt), JSON.stringify(google.calls));
    assert.ok(google.calls.includes('GET /computeMetadata/v1/instance/service-accounts/default/token'));
  });

  it('answers 502 when IAM refuses to sign, or the principal acts for no admin', async () => {
    assert.equal((await configure({ impersonate_principal: 'nobody@acme-prod.iam.gserviceaccount.com' })).status, 204);
    assert.equal((await login('alice@example.test')).status, 502);
    assert.equal((await configure({ gsuite_admin_impersonate: 'nobody@example.test' })).status, 204);
    assert.equal((await login('alice@example.test')).status, 502);
  });
});
