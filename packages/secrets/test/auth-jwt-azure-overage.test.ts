import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAzure, startFakeAzure } from './fakes/azure-cloud.js';
import { makeTlsIdentity, type TlsIdentity } from './fakes/tls-identity.js';
import { browse, startOpenIdProvider } from './openid-provider.js';

// Issue 31 point 2: the jwt method's `azure` provider_config. A token whose user is in too many
// groups carries a claim source instead of the groups claim (a group overage); the groups are then
// fetched from Microsoft Graph's getMemberObjects (the fake Azure, over real TLS) with the client's
// own token (client credentials at the tenant's token endpoint).

const TENANT = randomUUID();
const CLIENT_ID = randomUUID();
const SECRET = 'client-secret-for-tests';

/** A Ward test server and the fake Azure (over real TLS), in whose group `engineering` is `member`. */
interface AzureAndWard {
  tls: TlsIdentity;
  azure: FakeAzure;
  t: TestServer;
  /** The object ID of the Azure group `engineering`. */
  engineering: string;
  stop(): Promise<void>;
}

async function startAzureAndWard(member: string): Promise<AzureAndWard> {
  const tls = await makeTlsIdentity([]);
  const azure = await startFakeAzure(tls);
  const engineering = azure.addGroup('engineering');
  azure.groupMembers.get(engineering)?.add(member);
  let t: TestServer;
  try {
    t = await startTestServer();
  } catch (err) {
    await azure.close();
    throw err;
  }
  const stop = async () => {
    await t.stop();
    await azure.close();
  };
  return { tls, azure, t, engineering, stop };
}

/**
 * Enables the `type` login (jwt or oidc) at auth/<type> with `config` and provider_config azure,
 * writes its role `role`, and maps the Azure group `engineering` to an external group granting
 * the policy `eng`.
 */
async function enableAzureLogin(
  s: AzureAndWard,
  type: 'jwt' | 'oidc',
  config: Record<string, unknown>,
  role: { name: string; body: Record<string, unknown> },
): Promise<void> {
  await s.t.ok('POST', `sys/auth/${type}`, { type });
  await s.t.ok('POST', `auth/${type}/config`, { ...config, provider_config: { provider: 'azure' } });
  await s.t.ok('POST', `auth/${type}/role/${role.name}`, role.body);
  const accessor = (await s.t.ok('GET', 'sys/auth')).data[`${type}/`].accessor;
  const group = (await s.t.ok('POST', 'identity/group', { name: 'eng', type: 'external', policies: ['eng'] })).data.id;
  await s.t.ok('POST', 'identity/group-alias', { name: s.engineering, mount_accessor: accessor, canonical_id: group });
}

describe('jwt login with provider_config azure: the group overage', () => {
  let s: AzureAndWard;
  const user = randomUUID();
  const token = (o: { overage?: boolean; groups?: string[] }) =>
    s.azure.issueToken({ tenant: TENANT, audience: CLIENT_ID, oid: user, v2: true, ...o });
  const login = async (jwt: string) =>
    s.t.request('POST', 'auth/jwt/login', { token: null, body: { role: 'az', jwt } });

  before(async () => {
    s = await startAzureAndWard(user);
    s.azure.addRootApp(CLIENT_ID, SECRET);
    const oncall = s.azure.addGroup('oncall');
    s.azure.addGroup('sales');
    s.azure.groupMembers.get(oncall)?.add(user);
    await enableAzureLogin(
      s,
      'jwt',
      {
        oidc_discovery_url: `${s.azure.cloud.activeDirectoryEndpoint}${TENANT}/v2.0`,
        oidc_discovery_ca_pem: s.tls.cert,
        oidc_client_id: CLIENT_ID,
        oidc_client_secret: SECRET,
      },
      {
        name: 'az',
        body: {
          role_type: 'jwt',
          user_claim: 'oid',
          groups_claim: 'groups',
          bound_audiences: CLIENT_ID,
          token_policies: 'az',
        },
      },
    );
  });
  after(async () => {
    await s?.stop();
  });

  it('fetches the groups from Microsoft Graph when the token has an overage instead of the claim', async () => {
    const res = await login(await token({ overage: true }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['eng'], 'engineering came from getMemberObjects');
    const entity = await s.t.ok('GET', `identity/entity/id/${res.body.auth.entity_id}`);
    assert.equal(entity.data.group_ids.length, 1);
  });

  it('uses the token’s own groups claim when there is one, without asking Graph', async () => {
    s.azure.failNext('graph', 1);
    const res = await login(await token({ groups: ['someone-else'] }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.identity_policies, undefined);
    s.azure.failNext('graph', 0);
  });

  it('answers 502 when Graph refuses, 400 when the token has neither groups nor a claim source', async () => {
    s.azure.failNext('graph', 1);
    const refused = await login(await token({ overage: true }));
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    const none = await login(await token({}));
    assert.equal(none.status, 400, JSON.stringify(none.body));
    assert.match(none.body.errors[0], /_claim_names/);
  });
});

// The established path: in the OIDC flow the groups are fetched with the flow's own access token,
// which Graph (the fake Azure) checks with the provider that issued it (a real `oidc-provider`).
describe('oidc login with provider_config azure: the group overage with the flow’s access token', () => {
  const REDIRECT = 'http://localhost:8250/oidc/callback';
  let s: AzureAndWard;
  let op: Awaited<ReturnType<typeof startOpenIdProvider>>;
  const oid = randomUUID();
  const seen: string[] = [];

  before(async () => {
    s = await startAzureAndWard(oid);
    op = await startOpenIdProvider({ redirectUris: [REDIRECT] });
    op.accounts.set('carol', {
      _claim_names: { groups: 'src1' },
      _claim_sources: { src1: { endpoint: `${s.azure.cloud.graphEndpoint}/v1.0/users/${oid}/getMemberObjects` } },
    });
    s.azure.trustBearer(async (token) => {
      const account = await op.accessTokenAccount(token);
      if (account) seen.push(account);
      return account === 'carol';
    });
    await enableAzureLogin(
      s,
      'oidc',
      {
        oidc_discovery_url: op.issuer,
        oidc_discovery_ca_pem: s.tls.cert,
        oidc_client_id: op.clientId,
        oidc_client_secret: op.clientSecret,
        default_role: 'web',
      },
      {
        name: 'web',
        body: { user_claim: 'sub', groups_claim: 'groups', oidc_scopes: 'groups', allowed_redirect_uris: REDIRECT },
      },
    );
  });
  after(async () => {
    await op?.close();
    await s?.stop();
  });

  it('fetches the groups from the claim source with the access token of the code exchange', async () => {
    op.nextUser = 'carol';
    const started = await s.t.ok('POST', 'auth/oidc/oidc/auth_url', { role: 'web', redirect_uri: REDIRECT });
    const { query } = await browse(started.data.auth_url, REDIRECT);
    assert.ok(query?.get('code'));
    assert.ok(query);
    const res = await s.t.request('GET', `auth/oidc/oidc/callback?${query.toString()}`, { token: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['eng']);
    assert.deepEqual(seen, ['carol'], 'Graph was called with carol’s access token');
  });
});
