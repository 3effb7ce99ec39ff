import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: the AppRole auth method over real HTTP: logins, their tokens and entities, lockout,
// renewal. The paths' own behaviour (roles, secret ids, limits, tidy) is tested beside the code
// in src/auth/approle/paths.test.ts.

describe('AppRole over HTTP', () => {
  let t: TestServer;
  const login = (body: Record<string, unknown>) => t.request('POST', 'auth/approle/login', { token: null, body });
  const newSecretId = async (role: string, body: Record<string, unknown> = {}) =>
    (await t.ok('POST', `auth/approle/role/${role}/secret-id`, body)).data;

  before(async () => {
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/approle', { type: 'approle' });
    await t.ok('PUT', 'sys/policies/acl/app', {
      policy: 'path "secret/data/app/*" { capabilities = ["create", "read", "update"] }',
    });
  });
  after(() => t.stop());

  it('serves roles over HTTP: names fold to lower case, an unknown role is a 404', async () => {
    await t.ok('POST', 'auth/approle/role/Web', { token_policies: 'app', secret_id_ttl: '10m', token_ttl: 600 });
    assert.deepEqual((await t.request('LIST', 'auth/approle/role')).body.data.keys, ['web']);
    assert.equal((await t.request('GET', 'auth/approle/role/nope')).status, 404);
  });

  it('logs in with role id and secret id; the token carries the role and secret id metadata', async () => {
    await t.ok('POST', 'auth/approle/role/web/role-id', { role_id: 'web-role-id' });
    const secret = await newSecretId('web', { metadata: '{"team":"blue"}' });
    assert.match(secret.secret_id, /^[0-9a-f-]{36}$/);
    assert.match(secret.secret_id_accessor, /^[0-9a-f-]{36}$/);
    assert.equal(secret.secret_id_ttl, 600);
    const res = await login({ role_id: 'web-role-id', secret_id: secret.secret_id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const auth = res.body.auth;
    assert.deepEqual(auth.policies, ['app', 'default']);
    assert.deepEqual(auth.metadata, { role_name: 'web', team: 'blue' });
    assert.equal(auth.lease_duration, 600);
    const self = await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token });
    assert.equal(self.body.data.display_name, 'approle');
    const write = await t.request('POST', 'secret/data/app/x', { token: auth.client_token, body: { data: { a: 1 } } });
    assert.equal(write.status, 200);
    // One alias per role, named by the role id: the next login finds the same entity.
    const again = await login({ role_id: 'web-role-id', secret_id: secret.secret_id });
    assert.equal(again.body.auth.entity_id, auth.entity_id);
    const entity = await t.ok('GET', `identity/entity/id/${auth.entity_id}`);
    assert.equal(entity.data.aliases[0].name, 'web-role-id');
  });

  it('refuses a wrong secret id and an unknown role id alike (400)', async () => {
    const wrong = await login({ role_id: 'web-role-id', secret_id: 'nope' });
    const unknown = await login({ role_id: 'nobody', secret_id: 'nope' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal((await login({ secret_id: 'x' })).status, 400);
  });

  it('spends num_uses exactly, even when logins race', async () => {
    await t.ok('POST', 'auth/approle/role/race', { role_id: 'race-role-id' });
    const secret = await newSecretId('race', { num_uses: 3 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => login({ role_id: 'race-role-id', secret_id: secret.secret_id })),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 3);
    const lookup = await t.request('POST', 'auth/approle/role/race/secret-id/lookup', {
      body: { secret_id: secret.secret_id },
    });
    assert.equal(lookup.status, 204, 'the spent secret id is gone');
  });

  it('locks a role id out after 5 failed logins (403), as established', async () => {
    await t.ok('POST', 'auth/approle/role/locked', { role_id: 'locked-role-id' });
    const secret = await newSecretId('locked');
    for (let i = 0; i < 5; i++)
      assert.equal((await login({ role_id: 'locked-role-id', secret_id: 'bad' })).status, 400);
    assert.equal((await login({ role_id: 'locked-role-id', secret_id: secret.secret_id })).status, 403);
    const locked = await t.ok('GET', 'sys/locked-users');
    assert.match(JSON.stringify(locked.data), /locked-role-id/);
  });

  it('checks the secret id CIDR list against the caller, without spending a use', async () => {
    const elsewhere = await newSecretId('web', { cidr_list: '10.0.0.0/8', num_uses: 1 });
    assert.equal((await login({ role_id: 'web-role-id', secret_id: elsewhere.secret_id })).status, 400);
    const look = await t.ok('POST', 'auth/approle/role/web/secret-id/lookup', { secret_id: elsewhere.secret_id });
    assert.equal(look.data.secret_id_num_uses, 1);
    assert.deepEqual(look.data.cidr_list, ['10.0.0.0/8']);
    const here = await newSecretId('web', { cidr_list: ['127.0.0.1/32'] });
    assert.equal((await login({ role_id: 'web-role-id', secret_id: here.secret_id })).status, 200);
  });

  it('renews a login token under the role’s current TTL, and refuses once its policies changed', async () => {
    await t.ok('POST', 'auth/approle/role/renew', { role_id: 'renew-role-id', token_policies: 'app', token_ttl: 60 });
    const secret = await newSecretId('renew');
    const token = (await login({ role_id: 'renew-role-id', secret_id: secret.secret_id })).body.auth.client_token;
    await t.ok('POST', 'auth/approle/role/renew', { token_ttl: 120 });
    const renewed = await t.request('POST', 'auth/token/renew-self', { token });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.auth.lease_duration, 120);
    await t.ok('POST', 'auth/approle/role/renew', { token_policies: 'other' });
    const refused = await t.request('POST', 'auth/token/renew-self', { token });
    assert.equal(refused.status, 400);
  });
});
