import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 28 point 5: a child token inherits its parent's entity, so disabling the entity stops
// the children too (service and batch). Through bin/ward.
const ROOT = 'entity-root';

describe('child tokens of a login token (issue 28 point 5)', () => {
  let dev: DevWard;
  const call = (method: string, path: string, body?: unknown, token: string = ROOT) =>
    request(dev.url, method, path, { token, body });

  before(async () => {
    dev = await startDevWard(ROOT);
    assert.equal((await call('POST', 'sys/auth/userpass', { type: 'userpass' })).status, 204);
    assert.equal((await call('POST', 'sys/mounts/kv1', { type: 'kv', options: { version: '1' } })).status, 204);
    assert.equal((await call('POST', 'kv1/allowed/x', { v: '1' })).status, 204);
    const policy =
      'path "kv1/allowed/*" { capabilities = ["read"] }\npath "auth/token/create" { capabilities = ["update"] }';
    assert.equal((await call('PUT', 'sys/policies/acl/reader', { policy })).status, 204);
    const user = { password: 'pw', token_policies: 'reader' };
    assert.equal((await call('POST', 'auth/userpass/users/erin', user)).status, 204);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('children carry the entity, and none of them reads once the entity is disabled', async () => {
    const login = await request(dev.url, 'POST', 'auth/userpass/login/erin', { token: null, body: { password: 'pw' } });
    const parent = login.body.auth.client_token as string;
    const entityId = login.body.auth.entity_id as string;
    assert.notEqual(entityId, '');
    const service = (await call('POST', 'auth/token/create', { policies: ['reader'] }, parent)).body.auth;
    const batch = (await call('POST', 'auth/token/create', { policies: ['reader'], type: 'batch' }, parent)).body.auth;
    assert.equal(service.entity_id, entityId);
    assert.equal(batch.entity_id, entityId);
    const grandchild = (await call('POST', 'auth/token/create', { policies: ['reader'] }, service.client_token)).body
      .auth;
    assert.equal(grandchild.entity_id, entityId);
    const lookup = await call('POST', 'auth/token/lookup', { token: service.client_token });
    assert.equal(lookup.body.data.entity_id, entityId);

    const tokens = [parent, service.client_token, batch.client_token, grandchild.client_token];
    for (const t of tokens) assert.equal((await call('GET', 'kv1/allowed/x', undefined, t)).status, 200);
    assert.equal((await call('POST', `identity/entity/id/${entityId}`, { disabled: true })).status, 200);
    for (const t of tokens) assert.equal((await call('GET', 'kv1/allowed/x', undefined, t)).status, 403);
    assert.equal((await call('POST', `identity/entity/id/${entityId}`, { disabled: false })).status, 200);
    for (const t of tokens) assert.equal((await call('GET', 'kv1/allowed/x', undefined, t)).status, 200);
  });
});
