import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('token roles bind tokens to entities through entity_alias', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const role = await t.request('POST', 'auth/token/roles/bots', {
      body: { allowed_entity_aliases: ['Bot-1'], allowed_policies: ['default'] },
    });
    assert.equal(role.status, 204, JSON.stringify(role.body));
  });
  after(() => t.stop());

  it('creates the alias and its entity once, and binds every token to it', async () => {
    const first = await t.request('POST', 'auth/token/create/bots', { body: { entity_alias: 'bot-1' } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const entityId = first.body.auth.entity_id;
    assert.match(entityId, /^[0-9a-f-]{36}$/);
    const second = await t.request('POST', 'auth/token/create/bots', { body: { entity_alias: 'BOT-1' } });
    assert.equal(second.body.auth.entity_id, entityId);
    const entity = (await t.request('GET', `identity/entity/id/${entityId}`)).body.data;
    assert.equal(entity.aliases[0].name, 'bot-1');
    assert.equal(entity.aliases[0].mount_type, 'token');
    assert.equal(entity.aliases[0].mount_path, 'auth/token/');

    await t.request('PUT', 'sys/policies/acl/bot', {
      body: { policy: 'path "secret/data/bot" { capabilities = ["read"] }' },
    });
    await t.request('POST', 'secret/data/bot', { body: { data: { a: 1 } } });
    const token = first.body.auth.client_token;
    assert.equal((await t.request('GET', 'secret/data/bot', { token })).status, 403);
    await t.request('POST', `identity/entity/id/${entityId}`, { body: { policies: ['bot'] } });
    assert.equal((await t.request('GET', 'secret/data/bot', { token })).status, 200, 'entity policies apply');
  });

  it('refuses aliases the role does not allow, and entity_alias without a role', async () => {
    const other = await t.request('POST', 'auth/token/create/bots', { body: { entity_alias: 'bot-2' } });
    assert.equal(other.status, 400);
    assert.deepEqual(other.body.errors, ["invalid 'entity_alias' value"]);
    const noRole = await t.request('POST', 'auth/token/create', { body: { entity_alias: 'bot-1' } });
    assert.equal(noRole.status, 400);
    assert.deepEqual(noRole.body.errors, ["'entity_alias' is only allowed in combination with token role"]);
  });
});
