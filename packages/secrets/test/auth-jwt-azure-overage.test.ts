import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAzure, startFakeAzure } from './fakes/azure-cloud.js';
import { makeTlsIdentity, type TlsIdentity } from './fakes/tls-identity.js';

// Issue 31 point 2: the jwt method's `azure` provider_config. A token whose user is in too many
// groups carries a claim source instead of the groups claim (a group overage); the groups are then
// fetched from Microsoft Graph's getMemberObjects (the fake Azure, over real TLS) with the client's
// own token (client credentials at the tenant's token endpoint).

const TENANT = randomUUID();
const CLIENT_ID = randomUUID();
const SECRET = 'client-secret-for-tests';

describe('jwt login with provider_config azure: the group overage', () => {
  let tls: TlsIdentity;
  let azure: FakeAzure;
  let t: TestServer;
  const user = randomUUID();
  let engineering = '';
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const token = (o: { overage?: boolean; groups?: string[] }) =>
    azure.issueToken({ tenant: TENANT, audience: CLIENT_ID, oid: user, v2: true, ...o });
  const login = async (jwt: string) => t.request('POST', 'auth/jwt/login', { token: null, body: { role: 'az', jwt } });

  before(async () => {
    tls = await makeTlsIdentity([]);
    azure = await startFakeAzure(tls);
    azure.addRootApp(CLIENT_ID, SECRET);
    engineering = azure.addGroup('engineering');
    const oncall = azure.addGroup('oncall');
    azure.addGroup('sales');
    azure.groupMembers.get(engineering)?.add(user);
    azure.groupMembers.get(oncall)?.add(user);
    t = await startTestServer();
    await ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    await ok('POST', 'auth/jwt/config', {
      oidc_discovery_url: `${azure.cloud.activeDirectoryEndpoint}${TENANT}/v2.0`,
      oidc_discovery_ca_pem: tls.cert,
      oidc_client_id: CLIENT_ID,
      oidc_client_secret: SECRET,
      provider_config: { provider: 'azure' },
    });
    await ok('POST', 'auth/jwt/role/az', {
      role_type: 'jwt',
      user_claim: 'oid',
      groups_claim: 'groups',
      bound_audiences: CLIENT_ID,
      token_policies: 'az',
    });
    const accessor = (await ok('GET', 'sys/auth')).data['jwt/'].accessor;
    const group = (await ok('POST', 'identity/group', { name: 'eng', type: 'external', policies: ['eng'] })).data.id;
    await ok('POST', 'identity/group-alias', { name: engineering, mount_accessor: accessor, canonical_id: group });
  });
  after(async () => {
    await t?.stop();
    await azure?.close();
  });

  it('fetches the groups from Microsoft Graph when the token has an overage instead of the claim', async () => {
    const res = await login(await token({ overage: true }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['eng'], 'engineering came from getMemberObjects');
    const entity = await ok('GET', `identity/entity/id/${res.body.auth.entity_id}`);
    assert.equal(entity.data.group_ids.length, 1);
  });

  it('uses the token’s own groups claim when there is one, without asking Graph', async () => {
    azure.failNext('graph', 1);
    const res = await login(await token({ groups: ['someone-else'] }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.identity_policies, undefined);
    azure.failNext('graph', 0);
  });

  it('answers 502 when Graph refuses, 400 when the token has neither groups nor a claim source', async () => {
    azure.failNext('graph', 1);
    const refused = await login(await token({ overage: true }));
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    const none = await login(await token({}));
    assert.equal(none.status, 400, JSON.stringify(none.body));
    assert.match(none.body.errors[0], /_claim_names/);
  });
});
