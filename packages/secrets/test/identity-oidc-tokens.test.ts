import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 31 (hvac's jwt/oidc tests configure with Ward as the OpenID provider): identity tokens
// (identity/oidc/*) with their discovery document and keys, verified by Ward's own jwt method.

describe('identity tokens (identity/oidc) as an OpenID provider for the jwt method', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('issues tokens for the caller’s entity that the jwt method verifies through discovery', async () => {
    const configured = await t.ok('POST', 'identity/oidc/config', { issuer: t.url });
    assert.equal(configured.warnings.length, 1, 'an explicit issuer is answered with a warning');
    assert.equal((await t.ok('GET', 'identity/oidc/config')).data.issuer, t.url);
    await t.ok('POST', 'identity/oidc/key/k1', {});
    await t.ok('POST', 'identity/oidc/role/r1', { key: 'k1', ttl: '1h' });
    const clientId = (await t.ok('GET', 'identity/oidc/role/r1')).data.client_id;
    assert.match(clientId, /^[A-Za-z0-9_-]{20,}$/);
    assert.equal((await t.request('POST', 'identity/oidc/role/bad', { body: { key: 'nope' } })).status, 400);

    // A token with an entity: an approle login.
    await t.ok('POST', 'sys/auth/approle', { type: 'approle' });
    await t.ok('PUT', 'sys/policies/acl/tokens', {
      policy: 'path "identity/oidc/token/*" { capabilities = ["read"] }',
    });
    await t.ok('POST', 'auth/approle/role/app', {
      bind_secret_id: false,
      secret_id_bound_cidrs: '127.0.0.1/32',
      token_policies: 'tokens',
    });
    const roleId = (await t.ok('GET', 'auth/approle/role/app/role-id')).data.role_id;
    const login = await t.request('POST', 'auth/approle/login', { token: null, body: { role_id: roleId } });
    const appToken = login.body.auth.client_token;
    const entityId = login.body.auth.entity_id;

    const refused = await t.request('GET', 'identity/oidc/token/r1', { token: appToken });
    assert.equal(refused.status, 400, 'the key does not allow the role’s client id yet');
    await t.ok('POST', 'identity/oidc/key/k1', { allowed_client_ids: clientId });
    const issued = (await t.ok('GET', 'identity/oidc/token/r1', undefined, appToken)).data;
    const claims = decodeJwt(issued.token);
    assert.equal(claims.iss, `${t.url}/v1/identity/oidc`);
    assert.equal(claims.sub, entityId);
    assert.equal(claims.aud, clientId);

    const discovery = await fetch(`${t.url}/v1/identity/oidc/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    const doc = (await discovery.json()) as { issuer: string; jwks_uri: string };
    assert.equal(doc.issuer, `${t.url}/v1/identity/oidc`);
    const jwks = (await (await fetch(doc.jwks_uri)).json()) as { keys: unknown[] };
    assert.equal(jwks.keys.length, 2, 'the signing key and, published ahead, the next one');
    const introspected = await t.ok('POST', 'identity/oidc/introspect', { token: issued.token, client_id: clientId });
    assert.deepEqual(introspected, { active: true });
    const other = await t.ok('POST', 'identity/oidc/introspect', { token: issued.token, client_id: 'other' });
    assert.equal(other.active, false);

    await t.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    await t.ok('POST', 'auth/jwt/config', { oidc_discovery_url: `${t.url}/v1/identity/oidc` });
    await t.ok('POST', 'auth/jwt/role/ward', { role_type: 'jwt', user_claim: 'sub', bound_audiences: clientId });
    const jwtLogin = await t.request('POST', 'auth/jwt/login', {
      token: null,
      body: { role: 'ward', jwt: issued.token },
    });
    assert.equal(jwtLogin.status, 200, JSON.stringify(jwtLogin.body));
    assert.equal(jwtLogin.body.auth.metadata.role, 'ward');

    // After a rotation the old key still verifies; a token of the new key does too.
    await t.ok('POST', 'identity/oidc/key/k1/rotate', {});
    const keys = (await (await fetch(doc.jwks_uri)).json()) as { keys: unknown[] };
    assert.equal(keys.keys.length, 3);
    assert.equal((await t.ok('POST', 'identity/oidc/introspect', { token: issued.token })).active, true);
    const second = (await t.ok('GET', 'identity/oidc/token/r1', undefined, appToken)).data.token;
    assert.equal((await t.ok('POST', 'identity/oidc/introspect', { token: second })).active, true);
    assert.equal((await t.request('DELETE', 'identity/oidc/key/k1')).status, 400, 'a role uses it');
  });
});
