import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('ACL policies over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('writes, reads, lists and deletes a policy through sys/policies/acl and sys/policy', async () => {
    const text = 'path "secret/data/app/*" {\n  capabilities = ["read", "list"]\n}\n';
    assert.equal((await t.request('PUT', 'sys/policies/acl/app-reader', { body: { policy: text } })).status, 204);
    const read = await t.request('GET', 'sys/policies/acl/app-reader');
    assert.equal(read.body.data.name, 'app-reader');
    assert.equal(read.body.data.policy, text);
    const legacy = await t.request('GET', 'sys/policy/app-reader');
    assert.equal(legacy.body.rules, text, 'sys/policy copies data to the top level');
    const list = await t.request('LIST', 'sys/policies/acl');
    assert.ok(list.body.data.keys.includes('app-reader'));
    assert.ok(list.body.data.keys.includes('default'));
    const all = await t.request('GET', 'sys/policy');
    assert.ok(all.body.policies.includes('root'));
    assert.equal((await t.request('DELETE', 'sys/policies/acl/app-reader')).status, 204);
    assert.equal((await t.request('GET', 'sys/policies/acl/app-reader')).status, 404);
  });

  it('refuses a policy that does not parse, and protects the built-ins', async () => {
    const bad = await t.request('PUT', 'sys/policies/acl/bad', {
      body: { policy: 'path "x" { capabilities = ["fly"] }' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0], /invalid capability "fly"/);
    const empty = await t.request('PUT', 'sys/policies/acl/empty', { body: { policy: '' } });
    assert.deepEqual(empty.body, { errors: ["'policy' parameter not supplied or empty"] });
    assert.equal((await t.request('DELETE', 'sys/policies/acl/default')).status, 400);
    assert.equal((await t.request('PUT', 'sys/policies/acl/root', { body: { policy: 'path "x" {}' } })).status, 400);
  });

  it('reports the capabilities of the calling root token', async () => {
    const res = await t.request('POST', 'sys/capabilities-self', { body: { paths: ['secret/data/x'] } });
    assert.deepEqual(res.body.data.capabilities, ['root']);
    assert.deepEqual(res.body.capabilities, ['root']);
  });

  it('keeps policies across a seal and unseal (they live behind the barrier)', async () => {
    await t.request('PUT', 'sys/policies/acl/kept', { body: { policy: 'path "a/*" { capabilities = ["read"] }' } });
    assert.equal((await t.request('PUT', 'sys/seal')).status, 204);
    assert.equal((await t.request('GET', 'sys/policies/acl/kept')).status, 503);
    const unsealed = await t.request('PUT', 'sys/unseal', { body: { key: t.unsealKey } });
    assert.equal(unsealed.body.sealed, false);
    const read = await t.request('GET', 'sys/policies/acl/kept');
    assert.match(read.body.data.policy, /capabilities = \["read"\]/);
  });
});
