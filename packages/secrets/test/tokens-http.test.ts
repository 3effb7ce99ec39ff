import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const DENIED = 'permission denied';

describe('tokens and policies together over HTTP', () => {
  let t: TestServer;
  const as = (token: string) => ({
    get: (path: string) => t.request('GET', path, { token }),
    post: (path: string, body?: unknown) => t.request('POST', path, { token, body }),
    list: (path: string) => t.request('LIST', path, { token }),
  });
  const createToken = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', 'auth/token/create', { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.auth as { client_token: string; accessor: string; policies: string[]; lease_duration: number };
  };

  before(async () => {
    t = await startTestServer();
    await t.request('PUT', 'sys/policies/acl/app', {
      body: {
        policy: `
path "secret/data/app/*" { capabilities = ["create", "read"] }
path "secret/metadata/app/*" { capabilities = ["list"] }
path "secret/data/shared" { capabilities = ["update", "read"] }
path "auth/token/create" { capabilities = ["update"] }`,
      },
    });
    await t.request('POST', 'secret/data/shared', { body: { data: { v: 1 } } });
  });
  after(() => t.stop());

  it('issues a token with the asked policies plus default', async () => {
    const auth = await createToken({ policies: ['app'], ttl: '1h' });
    assert.match(auth.client_token, /^hvs\./);
    assert.deepEqual([...auth.policies].sort(), ['app', 'default']);
    assert.equal(auth.lease_duration, 3600);
    const self = await as(auth.client_token).get('auth/token/lookup-self');
    assert.equal(self.body.data.accessor, auth.accessor);
    assert.equal(self.body.data.ttl, 3600);
  });

  it('grants what the policy grants and refuses the rest with the established 403', async () => {
    const { client_token: token } = await createToken({ policies: ['app'] });
    const u = as(token);
    assert.equal((await u.post('secret/data/app/one', { data: { a: 1 } })).status, 200);
    assert.equal((await u.get('secret/data/app/one')).status, 200);
    const elsewhere = await u.get('secret/data/other');
    assert.equal(elsewhere.status, 403);
    assert.deepEqual(elsewhere.body, { errors: [DENIED] });
    // ACL runs before routing: a path that does not exist is 403 too, so nothing leaks.
    assert.equal((await u.get('nowhere/at/all')).status, 403);
    assert.equal((await u.get('sys/mounts')).status, 403);
  });

  it('tells create from update through the existence check', async () => {
    const u = as((await createToken({ policies: ['app'] })).client_token);
    assert.equal((await u.post('secret/data/app/fresh', { data: { a: 1 } })).status, 200, 'create is granted');
    const update = await u.post('secret/data/app/fresh', { data: { a: 2 } });
    assert.equal(update.status, 403, 'update of an existing secret is not');
    assert.equal((await u.post('secret/data/shared', { data: { v: 2 } })).status, 200, 'update is granted here');
    assert.equal((await u.post('secret/data/new-shared', { data: { v: 1 } })).status, 403);
  });

  it('revokes a token after its last use', async () => {
    const { client_token: token } = await createToken({ policies: ['app'], num_uses: 2 });
    assert.equal((await as(token).get('secret/data/shared')).status, 200);
    assert.equal((await as(token).get('secret/data/shared')).status, 200, 'the last use still succeeds');
    assert.equal((await as(token).get('secret/data/shared')).status, 403);
  });

  it('revokes children with their parent, and orphans survive', async () => {
    const parent = await createToken({ policies: ['app'] });
    const child = (await as(parent.client_token).post('auth/token/create', { policies: ['app'] })).body.auth;
    const orphan = (await t.request('POST', 'auth/token/create-orphan', { body: { policies: ['app'] } })).body.auth;
    assert.equal((await t.request('POST', 'auth/token/revoke', { body: { token: parent.client_token } })).status, 204);
    assert.equal((await as(child.client_token).get('auth/token/lookup-self')).status, 403);
    assert.equal((await as(orphan.client_token).get('auth/token/lookup-self')).status, 200);
  });

  it('expires a token at the end of its TTL (by the injected clock)', async () => {
    const { client_token: token, accessor } = await createToken({ policies: ['app'], ttl: '10m' });
    const clock = t.clock as FakeClock;
    clock.advance(9 * 60_000);
    assert.equal((await as(token).get('auth/token/lookup-self')).status, 200);
    clock.advance(61_000);
    assert.equal((await as(token).get('auth/token/lookup-self')).status, 403);
    const byAccessor = await t.request('POST', 'auth/token/lookup-accessor', { body: { accessor } });
    assert.notEqual(byAccessor.status, 200, 'the expiration manager revoked it');
  });

  it('refuses a token used from outside its bound CIDRs', async () => {
    // Token create takes CIDRs from a role, as established servers do.
    for (const [name, cidrs] of [
      ['loopback', ['127.0.0.0/8']],
      ['elsewhere', ['10.0.0.0/8', '2001:db8::/32']],
    ] as const) {
      const role = await t.request('POST', `auth/token/roles/${name}`, {
        body: { allowed_policies: ['app'], token_bound_cidrs: cidrs },
      });
      assert.equal(role.status, 204);
    }
    const create = async (role: string) =>
      (await t.request('POST', `auth/token/create/${role}`, { body: { policies: ['app'], ttl: '1h' } })).body.auth;
    const inside = await create('loopback');
    assert.equal((await as(inside.client_token).get('auth/token/lookup-self')).status, 200);
    const outside = await create('elsewhere');
    const refused = await as(outside.client_token).get('auth/token/lookup-self');
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { errors: ['permission denied'] });
  });

  it('issues batch tokens that work but cannot be renewed', async () => {
    const batch = await createToken({ policies: ['app'], type: 'batch', ttl: '1h' });
    assert.match(batch.client_token, /^hvb\./);
    assert.equal((await as(batch.client_token).get('secret/data/shared')).status, 200);
    const renew = await as(batch.client_token).post('auth/token/renew-self', {});
    assert.equal(renew.status, 400);
  });

  it('registers a service token lease that sys/leases can look up', async () => {
    const auth = await createToken({ policies: ['app'], ttl: '1h' });
    const listing = await t.request('LIST', 'sys/leases/lookup/auth/token/create/');
    assert.equal(listing.status, 200);
    assert.ok(listing.body.data.keys.length >= 1);
    const self = await as(auth.client_token).get('auth/token/lookup-self');
    assert.equal(self.body.data.path, 'auth/token/create');
  });

  it('answers capabilities for a limited token', async () => {
    const { client_token: token } = await createToken({ policies: ['app'] });
    const res = await as(token).post('sys/capabilities-self', { paths: ['secret/data/app/x', 'secret/data/zzz'] });
    assert.deepEqual(res.body.data['secret/data/app/x'], ['create', 'read']);
    assert.deepEqual(res.body.data['secret/data/zzz'], ['deny']);
  });
});
