import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 8, issue 14 point 4: help is a `help` operation through the request
// pipeline, so a token of a child namespace gets no help about its parent's mounts.

describe('?help=1 across namespaces', () => {
  let t: TestServer;
  let ns1Token: string;
  const inNs1 = { 'X-Vault-Namespace': 'ns1' };

  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    assert.equal((await t.request('POST', 'sys/namespaces/ns1')).status, 200);
    const created = await t.request('POST', 'auth/token/create', { headers: inNs1, body: { policies: ['default'] } });
    ns1Token = created.body.auth.client_token;
  });
  after(() => t.stop());

  it('refuses a child namespace’s token help about the root namespace, mounted or not', async () => {
    const mounted = await t.request('GET', 'auth/userpass/users/x?help=1', { token: ns1Token });
    const absent = await t.request('GET', 'nomount/x?help=1', { token: ns1Token });
    assert.equal(mounted.status, 403);
    assert.deepEqual(absent, { ...absent, status: mounted.status, body: mounted.body }, 'the same answer for both');
  });

  it('answers the same token’s help inside its own namespace', async () => {
    const own = await t.request('GET', 'sys/mounts?help=1', { token: ns1Token, headers: inNs1 });
    assert.equal(own.status, 200);
    assert.deepEqual(Object.keys(own.body).sort(), ['help', 'openapi', 'see_also']);
    const viaPath = await t.request('GET', 'ns1/auth/token/lookup-self?help=1', { token: ns1Token });
    assert.equal(viaPath.status, 200);
  });
});
