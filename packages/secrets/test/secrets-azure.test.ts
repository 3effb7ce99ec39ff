import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '@ward/base';
import { type Agent, request } from 'undici';
import { BUILTIN_BACKENDS } from '../src/catalog.js';
import { azureBackendFactory } from '../src/engines/azure/index.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAzure, startFakeAzure } from './fakes/azure-cloud.js';
import { makeTlsIdentity } from './fakes/tls-identity.js';

// Issue 37: the Azure secrets engine against a fake Azure over real TLS, through the real SDKs:
// @azure/identity at the fake Entra ID, Microsoft Graph (@microsoft/microsoft-graph-client) and
// Resource Manager role assignments (@azure/arm-authorization).

const TENANT = 'tenant-1';
const SUB = '00000000-0000-0000-0000-00000000000b';

describe('Azure secrets engine', () => {
  let t: TestServer;
  let azure: FakeAzure;
  let agent: Agent;
  let readerId = '';
  let groupId = '';
  let existing = { objectId: '' };
  /** Whether Entra ID accepts the client id and secret (the client-credentials grant). */
  const signsIn = async (clientId: string, secret: string) => {
    const res = await request(`${azure.cloud.activeDirectoryEndpoint}${TENANT}/oauth2/v2.0/token`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        scope: 'x/.default',
      }).toString(),
    });
    await res.body.dump();
    return res.statusCode === 200;
  };

  before(async () => {
    const tls = await makeTlsIdentity([]);
    agent = tls.agent();
    azure = await startFakeAzure(tls);
    azure.addRootApp('engine-client', 'engine-secret');
    existing = azure.addRootApp('existing-client', 'existing-secret');
    readerId = azure.addRoleDefinition(SUB, 'Reader');
    azure.addRoleDefinition(SUB, 'Twin');
    azure.addRoleDefinition(SUB, 'Twin');
    groupId = azure.addGroup('deployers');
    const access = {
      clouds: new Map([['AzurePublicCloud', azure.cloud]]),
      caPem: tls.cert,
      dispatcher: agent,
      timeoutMs: 1_000,
    };
    // The system clock: a role assignment waits (a second) while a new principal replicates.
    t = await startTestServer({
      clock: systemClock,
      catalog: {
        mounts: new Map([...BUILTIN_BACKENDS.mounts, ['azure', azureBackendFactory(access)]]),
        auth: BUILTIN_BACKENDS.auth,
      },
    });
    await t.ok('POST', 'sys/mounts/azure', { type: 'azure' });
  });
  after(async () => {
    await t?.stop();
    await azure?.close();
    await agent?.close();
  });

  it('config: empty values before it is written, the secret never shown, root_password_ttl defaults to 182 days', async () => {
    assert.deepEqual((await t.ok('GET', 'azure/config')).data, {
      subscription_id: '',
      tenant_id: '',
      client_id: '',
      environment: '',
      root_password_ttl: 0,
    });
    assert.equal((await t.request('POST', 'azure/config', { body: { environment: 'AzureCats' } })).status, 400);
    await t.ok('POST', 'azure/config', {
      subscription_id: SUB,
      tenant_id: TENANT,
      client_id: 'engine-client',
      client_secret: 'engine-secret',
    });
    assert.deepEqual((await t.ok('GET', 'azure/config')).data, {
      subscription_id: SUB,
      tenant_id: TENANT,
      client_id: 'engine-client',
      environment: '',
      root_password_ttl: 182 * 86400,
    });
  });

  it('roles: definitions resolved through Resource Manager and Graph; refusals for what does not exist', async () => {
    const scope = `/subscriptions/${SUB}/resourceGroups/rg-app`;
    const none = await t.request('POST', 'azure/roles/empty', { body: { ttl: 60 } });
    assert.match(none.body.errors[0], /either Azure role definitions, group definitions, or an Application Object ID/);
    const unknown = await t.request('POST', 'azure/roles/x', {
      body: { azure_roles: JSON.stringify([{ role_name: 'Owner', scope }]) },
    });
    assert.deepEqual(unknown.body.errors, ["no role found for role_name: 'Owner'"]);
    const twins = await t.request('POST', 'azure/roles/x', { body: { azure_roles: [{ role_name: 'Twin', scope }] } });
    assert.match(twins.body.errors[0], /multiple matches found for role_name: 'Twin'/);
    assert.equal((await t.request('POST', 'azure/roles/x', { body: { application_object_id: 'nope' } })).status, 400);
    assert.equal(
      (await t.request('POST', 'azure/roles/x', { body: { azure_groups: [{ group_name: 'nobody' }] } })).status,
      400,
    );
    const tooLong = await t.request('POST', 'azure/roles/x', {
      body: { application_object_id: existing.objectId, ttl: 100, max_ttl: 50 },
    });
    assert.deepEqual(tooLong.body.errors, ['ttl cannot be greater than max_ttl']);
    await t.ok('POST', 'azure/roles/dynamic', {
      azure_roles: JSON.stringify([{ role_name: 'Reader', scope }]),
      azure_groups: JSON.stringify([{ group_name: 'deployers' }]),
      ttl: '1h',
      max_ttl: '2h',
    });
    const read = (await t.ok('GET', 'azure/roles/dynamic')).data;
    assert.deepEqual(read.azure_roles, [{ role_name: 'Reader', role_id: readerId, scope }]);
    assert.deepEqual(read.azure_groups, [{ group_name: 'deployers', object_id: groupId }]);
    assert.deepEqual([read.ttl, read.max_ttl, read.application_object_id, read.persist_app], [3600, 7200, '', false]);
    await t.ok('POST', 'azure/roles/static', { application_object_id: existing.objectId, ttl: 600 });
    assert.deepEqual((await t.ok('LIST', 'azure/roles')).data.keys, ['dynamic', 'static']);
  });

  it('creds of a dynamic role: a new application with its service principal, role assignment and group; revoke deletes them', async () => {
    const apps = azure.applications.size;
    const res = await t.ok('GET', 'azure/creds/dynamic');
    assert.equal(res.lease_duration, 3600);
    const { client_id, client_secret } = res.data;
    assert.ok(await signsIn(client_id, client_secret), 'the issued secret signs in');
    assert.equal(azure.applications.size, apps + 1);
    const sp = [...azure.servicePrincipals.values()].find((s) => s.appId === client_id);
    assert.ok(sp);
    assert.deepEqual(
      [...azure.roleAssignments.values()].map((a) => [a.principalId, a.roleDefinitionId]),
      [[sp.id, readerId]],
    );
    assert.ok(azure.groupMembers.get(groupId)?.has(sp.id));
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(azure.applications.size, apps);
    assert.equal(azure.roleAssignments.size, 0);
    assert.equal(azure.groupMembers.get(groupId)?.size, 0);
    assert.ok(![...azure.servicePrincipals.values()].some((s) => s.appId === client_id));
    assert.equal(await signsIn(client_id, client_secret), false);
  });

  it('creds of an existing application: a password added, removed on revoke; the application stays', async () => {
    const app = azure.applications.get(existing.objectId);
    const before = app?.passwords.size ?? 0;
    const res = await t.ok('GET', 'azure/creds/static');
    assert.equal(res.data.client_id, 'existing-client');
    assert.ok(await signsIn('existing-client', res.data.client_secret));
    assert.equal(app?.passwords.size, before + 1);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(app?.passwords.size, before);
    assert.ok(azure.applications.has(existing.objectId));
    assert.equal(await signsIn('existing-client', res.data.client_secret), false);
  });

  it('persist_app: one application for the role, a password per credential; deleting the role deletes it', async () => {
    const apps = azure.applications.size;
    await t.ok('POST', 'azure/roles/kept', { azure_groups: [{ object_id: groupId }], persist_app: true });
    assert.equal(azure.applications.size, apps + 1);
    const a = await t.ok('GET', 'azure/creds/kept');
    const b = await t.ok('GET', 'azure/creds/kept');
    assert.equal(a.data.client_id, b.data.client_id);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: a.lease_id });
    assert.equal(await signsIn(a.data.client_id, a.data.client_secret), false);
    assert.ok(await signsIn(b.data.client_id, b.data.client_secret));
    await t.ok('DELETE', 'azure/roles/kept');
    assert.equal(azure.applications.size, apps);
    assert.equal(azure.groupMembers.get(groupId)?.size, 0);
  });

  it('a role assignment is asked again while Resource Manager does not see the new principal yet', async () => {
    azure.lagReplication(1);
    const res = await t.ok('GET', 'azure/creds/dynamic');
    assert.equal(azure.roleAssignments.size, 1);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(azure.roleAssignments.size, 0);
  });

  it('Azure failing: creds are a 502 and leave nothing behind; a failed revoke is a 502 and a retry completes', async () => {
    const apps = azure.applications.size;
    azure.failNext('arm', 1);
    const failed = await t.request('GET', 'azure/creds/dynamic');
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    assert.equal(azure.applications.size, apps);
    assert.equal(azure.servicePrincipals.size, 2);
    const res = await t.ok('GET', 'azure/creds/dynamic');
    azure.failNext('graph', 1);
    const revoke = await t.request('PUT', 'sys/leases/revoke', { body: { lease_id: res.lease_id } });
    assert.equal(revoke.status, 502, JSON.stringify(revoke.body));
    assert.equal(azure.applications.size, apps + 1);
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
    assert.equal(azure.applications.size, apps);
    assert.equal(azure.roleAssignments.size, 0);
  });

  it('Azure not answering: the request fails with 502 after the timeout instead of hanging', async () => {
    const apps = azure.applications.size;
    azure.hangNext('graph', 1);
    const started = Date.now();
    const res = await t.request('GET', 'azure/creds/static');
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.ok(Date.now() - started < 10_000);
    assert.equal(azure.applications.size, apps);
  });

  it('rotate-root: the configured secret stops working, the new one is known only to the server', async () => {
    await t.ok('POST', 'azure/rotate-root');
    assert.equal(await signsIn('engine-client', 'engine-secret'), false);
    const config = (await t.ok('GET', 'azure/config')).data;
    assert.ok(Date.parse(config.root_password_expiration_date) > Date.now() + 180 * 86400_000);
    assert.ok(!('client_secret' in config));
    // The engine still signs in with the secret it made.
    const res = await t.ok('GET', 'azure/creds/static');
    await t.ok('PUT', 'sys/leases/revoke', { lease_id: res.lease_id });
  });
});
