import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from 'undici';
import { azureAuthBackendFactory } from '../src/auth/azure/index.js';
import { BUILTIN_BACKENDS } from '../src/catalog.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAzure, startFakeAzure } from './fakes/azure-cloud.js';
import { makeTlsIdentity } from './fakes/tls-identity.js';

// Issue 37: the Azure auth method against a fake Azure over real TLS: the tenant's OpenID
// discovery and keys (jose verifies), and Resource Manager's VM and scale set reads through
// @azure/arm-compute signed in through @azure/identity at the fake Entra ID.

const TENANT = 'tenant-1';
const RESOURCE = 'https://management.azure.com/';
const SUB = '00000000-0000-0000-0000-00000000000a';

describe('Azure auth method', () => {
  let t: TestServer;
  let azure: FakeAzure;
  let agent: Agent;
  const clock = new FakeClock(Date.now());
  const login = (body: Record<string, unknown>) => t.request('POST', 'auth/azure/login', { token: null, body });
  const token = (
    oid: string,
    o: { groups?: string[]; forged?: boolean; audience?: string; expiresInSeconds?: number } = {},
  ) => azure.issueToken({ tenant: TENANT, audience: o.audience ?? RESOURCE, oid, ...o });

  before(async () => {
    const tls = await makeTlsIdentity([]);
    agent = tls.agent();
    azure = await startFakeAzure(tls);
    azure.addRootApp('lookup-client', 'lookup-secret');
    azure.addMachine({
      subscriptionId: SUB,
      resourceGroup: 'rg-web',
      name: 'vm-1',
      location: 'westeurope',
      principalIds: ['sp-vm'],
    });
    azure.addMachine({
      subscriptionId: SUB,
      resourceGroup: 'rg-web',
      name: 'ss-1',
      scaleSet: true,
      location: 'westeurope',
      principalIds: ['sp-system', 'sp-user'],
    });
    const access = { clouds: new Map([['AzurePublicCloud', azure.cloud]]), caPem: tls.cert, dispatcher: agent };
    const catalog = {
      mounts: BUILTIN_BACKENDS.mounts,
      auth: new Map([...BUILTIN_BACKENDS.auth, ['azure', azureAuthBackendFactory(access)]]),
    };
    t = await startTestServer({ catalog, clock });
    await t.ok('POST', 'sys/auth/azure', { type: 'azure' });
  });
  after(async () => {
    await t?.stop();
    await azure?.close();
    await agent?.close();
  });

  it('config: 404 before it is written, an unknown environment refused, the secret never shown', async () => {
    assert.equal((await t.request('GET', 'auth/azure/config')).status, 404);
    const bad = await t.request('POST', 'auth/azure/config', { body: { tenant_id: TENANT, environment: 'AzureCats' } });
    assert.equal(bad.status, 400);
    await t.ok('POST', 'auth/azure/config', {
      tenant_id: TENANT,
      resource: RESOURCE,
      environment: 'azurepubliccloud',
      client_id: 'lookup-client',
      client_secret: 'lookup-secret',
    });
    assert.deepEqual((await t.ok('GET', 'auth/azure/config')).data, {
      tenant_id: TENANT,
      resource: RESOURCE,
      environment: 'AzurePublicCloud',
      client_id: 'lookup-client',
    });
  });

  it('roles need a bound; they read back with the token fields', async () => {
    const none = await t.request('POST', 'auth/azure/role/empty', { body: { policies: 'a' } });
    assert.deepEqual(none.body.errors, ['must have at least one bound constraint when creating/updating a role']);
    await t.ok('POST', 'auth/azure/role/sp', { bound_service_principal_ids: 'sp-a,sp-b', token_policies: 'sp-pol' });
    await t.ok('POST', 'auth/azure/role/group', { bound_group_ids: ['g-1'], policies: 'group-pol' });
    await t.ok('POST', 'auth/azure/role/vm', {
      bound_resource_groups: 'RG-WEB',
      bound_locations: 'westeurope',
      policies: 'vm',
    });
    await t.ok('POST', 'auth/azure/role/ss', { bound_scale_sets: 'ss-1', bound_subscription_ids: SUB, policies: 'ss' });
    const read = (await t.ok('GET', 'auth/azure/role/sp')).data;
    assert.deepEqual(read.bound_service_principal_ids, ['sp-a', 'sp-b']);
    assert.deepEqual(read.bound_locations, []);
    assert.deepEqual(read.token_policies, ['sp-pol']);
    assert.deepEqual((await t.ok('LIST', 'auth/azure/role')).data.keys, ['group', 'sp', 'ss', 'vm']);
  });

  it('a managed identity logs in with its token: alias is the object id, groups bound', async () => {
    const res = await login({ role: 'sp', jwt: await token('sp-a') });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['default', 'sp-pol']);
    assert.equal(res.body.auth.metadata.role, 'sp');
    assert.equal((await login({ role: 'sp', jwt: await token('sp-z') })).status, 403);
    assert.equal((await login({ role: 'group', jwt: await token('x', { groups: ['g-0', 'g-1'] }) })).status, 200);
    assert.equal((await login({ role: 'group', jwt: await token('x', { groups: ['g-2'] }) })).status, 403);
  });

  it("the entity alias is the object id, and the token's groups join the external groups aliased to them", async () => {
    const accessor = (await t.ok('GET', 'sys/auth')).data['azure/'].accessor;
    const group = (await t.ok('POST', 'identity/group', { name: 'azure-g1', type: 'external', policies: ['g1-pol'] }))
      .data.id;
    await t.ok('POST', 'identity/group-alias', { name: 'g-1', mount_accessor: accessor, canonical_id: group });
    const res = await login({ role: 'group', jwt: await token('oid-42', { groups: ['g-1'] }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.identity_policies, ['g1-pol']);
    const entity = (await t.ok('GET', `identity/entity/id/${res.body.auth.entity_id}`)).data;
    assert.deepEqual(
      entity.aliases.map((a: { name: string; mount_type: string }) => [a.name, a.mount_type]),
      [['oid-42', 'azure']],
    );
  });

  it('renewal applies the role as it is now: a changed policy set stops it', async () => {
    await t.ok('POST', 'auth/azure/role/renew', {
      bound_service_principal_ids: 'sp-r',
      token_policies: 'r1',
      token_ttl: 60,
    });
    const res = await login({ role: 'renew', jwt: await token('sp-r') });
    const client = res.body.auth.client_token;
    const renewed = await t.request('POST', 'auth/token/renew-self', { token: client, body: { increment: 30 } });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    await t.ok('POST', 'auth/azure/role/renew', { token_policies: 'r2' });
    const refused = await t.request('POST', 'auth/token/renew-self', { token: client });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
  });

  it('forged, expired and wrong-audience tokens are 403; garbage is 400; an unknown role is 400', async () => {
    const forged = await login({ role: 'sp', jwt: await token('sp-a', { forged: true }) });
    assert.equal(forged.status, 403);
    assert.match(forged.body.errors[0], /could not verify the token/);
    assert.equal(
      (await login({ role: 'sp', jwt: await token('sp-a', { audience: 'https://vault.azure.net' }) })).status,
      403,
    );
    const shortLived = await token('sp-a', { expiresInSeconds: 30 });
    clock.advance(120_000);
    assert.equal((await login({ role: 'sp', jwt: shortLived })).status, 403);
    clock.advance(-120_000);
    assert.equal((await login({ role: 'sp', jwt: 'not-a-jwt' })).status, 400);
    assert.equal((await login({ role: 'nope', jwt: await token('sp-a') })).status, 400);
  });

  it('machine bounds: the VM or scale set is read through Resource Manager and must carry the identity', async () => {
    const vm = { subscription_id: SUB, resource_group_name: 'rg-web', vm_name: 'vm-1' };
    const res = await login({ role: 'vm', jwt: await token('sp-vm'), ...vm });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.vm_name, 'vm-1');
    assert.equal((await login({ role: 'vm', jwt: await token('sp-other'), ...vm })).status, 403);
    assert.equal((await login({ role: 'vm', jwt: await token('sp-vm') })).status, 400);
    const missing = await login({ role: 'vm', jwt: await token('sp-vm'), ...vm, vm_name: 'vm-9' });
    assert.equal(missing.status, 403);
    const resourceId = `/subscriptions/${SUB}/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachineScaleSets/ss-1`;
    const ss = await login({ role: 'ss', jwt: await token('sp-user'), resource_id: resourceId });
    assert.equal(ss.status, 200, JSON.stringify(ss.body));
    const wrongSet = await login({ role: 'ss', jwt: await token('sp-vm'), ...vm });
    assert.equal(wrongSet.status, 403);
  });

  it('Resource Manager or Entra ID failing is a 502', async () => {
    const vm = { subscription_id: SUB, resource_group_name: 'rg-web', vm_name: 'vm-1' };
    azure.failNext('arm', 1);
    assert.equal((await login({ role: 'vm', jwt: await token('sp-vm'), ...vm })).status, 502);
    azure.failNext('login', 3);
    const entra = await login({ role: 'vm', jwt: await token('sp-vm'), ...vm });
    assert.equal(entra.status, 502, JSON.stringify(entra.body));
  });
});
