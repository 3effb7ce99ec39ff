import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Templated ACL policies fill alias and group directives from the caller's entity, as established
// (the server used to hand the ACL only the entity's id, name and metadata).

describe('templated ACL policies: aliases and groups', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.stop());

  it('lets a user read under their alias name and their group id only', async () => {
    await t.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    await t.ok('POST', 'sys/mounts/kv', { type: 'kv' });
    const accessor = (await t.ok('GET', 'sys/auth')).data['userpass/'].accessor;
    await t.ok('PUT', 'sys/policies/acl/own', {
      policy: `path "kv/home/{{identity.entity.aliases.${accessor}.name}}/*" { capabilities = ["create", "update", "read"] }
        path "kv/teams/{{identity.groups.names.ops.id}}/*" { capabilities = ["read"] }`,
    });
    await t.ok('POST', 'auth/userpass/users/alice', { password: 'pw', token_policies: 'own' });
    const token = (await t.ok('POST', 'auth/userpass/login/alice', { password: 'pw' })).auth.client_token;
    const status = async (method: string, path: string) =>
      (await t.request(method, path, { token, body: method === 'POST' ? { v: 1 } : undefined })).status;
    assert.equal(await status('POST', 'kv/home/alice/a'), 204);
    assert.equal(await status('POST', 'kv/home/bob/a'), 403);

    const entityId = (await t.ok('GET', 'auth/token/lookup-self', undefined, token)).data.entity_id;
    const group = (await t.ok('POST', 'identity/group', { name: 'ops', member_entity_ids: [entityId] })).data.id;
    await t.ok('POST', `kv/teams/${group}/x`, { v: 1 });
    assert.equal(await status('GET', `kv/teams/${group}/x`), 200);
    assert.equal(await status('GET', 'kv/teams/other/x'), 403);
  });
});
