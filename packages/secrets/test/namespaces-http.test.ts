import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('namespaces over HTTP', () => {
  let t: TestServer;
  const inNs = (ns: string) => ({ 'X-Vault-Namespace': ns });

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('creates nested namespaces from the header or the path, and lists children with key_info', async () => {
    const ns1 = await t.request('POST', 'sys/namespaces/ns1', { body: { custom_metadata: { team: 'a' } } });
    assert.equal(ns1.status, 200);
    assert.equal(ns1.body.data.path, 'ns1/');
    assert.match(ns1.body.data.id, /^[0-9A-Za-z]{6}$/);
    assert.deepEqual(ns1.body.data.custom_metadata, { team: 'a' });
    const viaHeader = await t.request('POST', 'sys/namespaces/ns2', { headers: inNs('ns1') });
    assert.equal(viaHeader.body.data.path, 'ns1/ns2/');
    const viaPath = await t.request('POST', 'ns1/sys/namespaces/ns3');
    assert.equal(viaPath.body.data.path, 'ns1/ns3/');
    const list = await t.request('LIST', 'sys/namespaces', { headers: inNs('ns1/') });
    assert.deepEqual(list.body.data.keys, ['ns2/', 'ns3/']);
    assert.equal(list.body.data.key_info['ns2/'].path, 'ns1/ns2/');
    const root = await t.request('LIST', 'sys/namespaces');
    assert.deepEqual(root.body.data.keys, ['ns1/']);
    const patched = await t.request('PATCH', 'sys/namespaces/ns1', {
      body: { custom_metadata: { env: 'prod' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.deepEqual(patched.body.data.custom_metadata, { team: 'a', env: 'prod' });
  });

  it('treats header, path and a split of the two as the same namespace', async () => {
    await t.request('POST', 'sys/mounts/kv', { body: { type: 'kv-v2' }, headers: inNs('ns1/ns2') });
    await t.request('POST', 'secret/data/foo', { body: { data: { where: 'ns2' } }, headers: inNs('ns1/ns2/') });
    assert.equal(
      (await t.request('POST', 'kv/data/foo', { body: { data: { v: 1 } }, headers: inNs('ns1/ns2') })).status,
      200,
    );
    for (const [path, headers] of [
      ['kv/data/foo', inNs('ns1/ns2/')],
      ['ns2/kv/data/foo', inNs('ns1/')],
      ['ns1/ns2/kv/data/foo', {}],
    ] as const) {
      const res = await t.request('GET', path, { headers });
      assert.equal(res.status, 200, `${JSON.stringify(headers)} ${path}`);
      assert.deepEqual(res.body.data.data, { v: 1 });
    }
    assert.equal((await t.request('GET', 'secret/data/x', { headers: inNs('nope/') })).status, 404);
  });

  it('keeps mounts apart: each namespace lists and reaches only its own', async () => {
    const nsMounts = await t.request('GET', 'sys/mounts', { headers: inNs('ns1/ns2') });
    assert.ok(nsMounts.body.data['kv/']);
    assert.equal(nsMounts.body.data['secret/'], undefined, 'the root secret/ is not in ns2');
    const rootMounts = await t.request('GET', 'sys/mounts');
    assert.equal(rootMounts.body.data['kv/'], undefined);
    assert.equal((await t.request('GET', 'kv/data/foo')).status, 404, 'no kv/ in the root namespace');
  });

  it('scopes tokens: a namespace token works there and below, never above', async () => {
    await t.request('PUT', 'sys/policies/acl/reader', {
      body: { policy: 'path "ns2/kv/data/*" { capabilities = ["read"] }' },
      headers: inNs('ns1'),
    });
    const created = await t.request('POST', 'auth/token/create', {
      body: { policies: ['reader'] },
      headers: inNs('ns1'),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const token = created.body.auth.client_token as string;
    const ns1Id = (await t.request('GET', 'sys/namespaces/ns1')).body.data.id;
    assert.ok(token.endsWith(`.${ns1Id}`), token);
    const read = await t.request('GET', 'kv/data/foo', { token, headers: inNs('ns1/ns2') });
    assert.equal(read.status, 200, 'the ns1 policy reaches into ns1/ns2');
    assert.equal((await t.request('GET', 'secret/data/foo', { token })).status, 403, 'not the root namespace');
    const policyInRoot = await t.request('GET', 'sys/policies/acl/reader');
    assert.equal(policyInRoot.status, 404, 'policies live in their namespace');
  });

  it('refuses to delete a namespace with children, then deletes it with its tokens and mounts', async () => {
    const refused = await t.request('DELETE', 'sys/namespaces/ns1');
    assert.deepEqual(refused.body, { errors: ['unable to delete namespace containing child namespaces'] });
    const created = await t.request('POST', 'auth/token/create', { body: {}, headers: inNs('ns1/ns3') });
    const token = created.body.auth.client_token as string;
    assert.equal((await t.request('GET', 'auth/token/lookup-self', { token, headers: inNs('ns1/ns3') })).status, 200);
    assert.equal((await t.request('DELETE', 'sys/namespaces/ns3', { headers: inNs('ns1') })).status, 204);
    assert.equal((await t.request('GET', 'auth/token/lookup-self', { token })).status, 403, 'its tokens are revoked');
    assert.equal((await t.request('DELETE', 'sys/namespaces/ns2', { headers: inNs('ns1') })).status, 204);
    assert.equal((await t.request('GET', 'ns1/ns2/kv/data/foo')).status, 404);
    assert.equal((await t.request('DELETE', 'sys/namespaces/ns1')).status, 204);
    assert.equal((await t.request('LIST', 'sys/namespaces')).status, 404);
  });

  it('keeps namespaces and their mounts across a seal and unseal', async () => {
    await t.request('POST', 'sys/namespaces/kept');
    await t.request('POST', 'sys/mounts/kv', { body: { type: 'kv-v2' }, headers: inNs('kept') });
    await t.request('POST', 'kv/data/s', { body: { data: { a: 1 } }, headers: inNs('kept') });
    await t.request('PUT', 'sys/seal');
    await t.request('PUT', 'sys/unseal', { body: { key: t.unsealKey } });
    const res = await t.request('GET', 'kept/kv/data/s');
    assert.deepEqual(res.body.data.data, { a: 1 });
  });

  it('keeps token roles per namespace: a role of one is unknown in another and goes with its namespace', async () => {
    await t.request('POST', 'sys/namespaces/roles-a');
    await t.request('POST', 'sys/namespaces/roles-b');
    const inA = inNs('roles-a');
    assert.equal(
      (await t.request('POST', 'auth/token/roles/ops', { body: { allowed_policies: 'ops' }, headers: inA })).status,
      204,
    );
    assert.deepEqual((await t.request('LIST', 'auth/token/roles', { headers: inA })).body.data.keys, ['ops']);
    assert.equal((await t.request('GET', 'auth/token/roles/ops', { headers: inNs('roles-b') })).status, 404);
    assert.equal((await t.request('GET', 'auth/token/roles/ops')).status, 404, 'not in the root namespace either');
    const made = await t.request('POST', 'auth/token/create/ops', { body: {}, headers: inNs('roles-b') });
    assert.equal(made.status, 400, JSON.stringify(made.body));
    const inRole = await t.request('POST', 'auth/token/create/ops', { body: {}, headers: inA });
    assert.equal(inRole.status, 200, JSON.stringify(inRole.body));
    assert.deepEqual(inRole.body.auth.token_policies, ['default', 'ops']);
    // A namespace of the same name made again starts without the roles of the deleted one.
    assert.equal((await t.request('DELETE', 'sys/namespaces/roles-a')).status, 204);
    await t.request('POST', 'sys/namespaces/roles-a');
    assert.equal((await t.request('GET', 'auth/token/roles/ops', { headers: inA })).status, 404);
  });
});
