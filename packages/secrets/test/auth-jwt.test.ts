import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type JwksServer, startJwksServer } from './fakes/jwks-server.js';

// Issue 31: the jwt auth method against keys served over HTTP (a JWKS that rotates) and static PEM keys.

const NOW = Date.parse('2031-03-01T12:00:00Z') / 1000;
const ISSUER = 'https://ci.example.test';

describe('jwt auth method', () => {
  let t: TestServer;
  let clock: FakeClock;
  let jwks: JwksServer;
  const login = (role: string, jwt: string, mount = 'jwt') =>
    t.request('POST', `auth/${mount}/login`, { token: null, body: { role, jwt } });
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: ISSUER,
    sub: 'repo:acme/app:ref:refs/heads/main',
    aud: 'ward',
    iat: NOW - 10,
    exp: NOW + 300,
    repository: 'acme/app',
    ref: 'refs/heads/main',
    actor: 'alice',
    groups: ['deployers', 'readers'],
    ...extra,
  });

  before(async () => {
    jwks = await startJwksServer();
    clock = new FakeClock(new Date(NOW * 1000).toISOString());
    t = await startTestServer({ clock });
    await t.ok('POST', 'sys/auth/jwt', { type: 'jwt' });
    await t.ok('POST', 'auth/jwt/config', { jwks_url: jwks.url, bound_issuer: ISSUER });
    await t.ok('PUT', 'sys/policies/acl/deploy', { policy: 'path "secret/*" { capabilities = ["read"] }' });
    await t.ok('POST', 'auth/jwt/role/ci', {
      role_type: 'jwt',
      bound_audiences: 'ward',
      user_claim: 'actor',
      bound_claims: { repository: 'acme/*', ref: ['refs/heads/main', 'refs/heads/release'] },
      bound_claims_type: 'glob',
      claim_mappings: { repository: 'repo' },
      groups_claim: 'groups',
      token_policies: 'deploy',
      token_ttl: '10m',
    });
  });
  after(async () => {
    await t.stop();
    await jwks.close();
  });

  it('keeps config and roles with the established fields, and refuses what cannot work', async () => {
    const config = (await t.ok('GET', 'auth/jwt/config')).data;
    assert.equal(config.jwks_url, jwks.url);
    assert.equal(config.oidc_client_secret, undefined);
    const role = (await t.ok('GET', 'auth/jwt/role/ci')).data;
    assert.equal(role.role_type, 'jwt');
    assert.deepEqual(role.bound_claims, { repository: ['acme/*'], ref: ['refs/heads/main', 'refs/heads/release'] });
    assert.equal(role.clock_skew_leeway, 60);
    assert.equal(role.expiration_leeway, 150);
    assert.equal(role.token_ttl, 600);
    assert.deepEqual((await t.ok('LIST', 'auth/jwt/role')).data.keys, ['ci']);
    const refusals: [string, unknown][] = [
      ['auth/jwt/role/x', { role_type: 'jwt', user_claim: 'sub' }],
      ['auth/jwt/role/x', { user_claim: 'sub' }],
      ['auth/jwt/role/x', { role_type: 'jwt', bound_audiences: 'a' }],
      ['auth/jwt/role/x', { role_type: 'saml', user_claim: 'sub', bound_audiences: 'a' }],
      ['auth/jwt/config', { jwks_url: jwks.url, jwt_validation_pubkeys: ['x'] }],
      ['auth/jwt/config', { jwks_url: 'http://127.0.0.1:1/keys' }],
      ['auth/jwt/config', { jwks_url: '', jwt_validation_pubkeys: ['not a key'] }],
    ];
    for (const [path, body] of refusals) {
      const res = await t.request('POST', path, { body });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await t.ok('GET', 'auth/jwt/config')).data.jwks_url, jwks.url, 'a refused write changes nothing');
  });

  it('checks provider_config as established: a known provider and its settings', async () => {
    const config = (provider_config: unknown) =>
      t.request('POST', 'auth/jwt/config', { body: { jwks_url: jwks.url, bound_issuer: ISSUER, provider_config } });
    assert.equal((await config({ provider: 'azure' })).status, 204);
    assert.deepEqual((await t.ok('GET', 'auth/jwt/config')).data.provider_config, { provider: 'azure' });
    const gsuite = {
      provider: 'gsuite',
      gsuite_admin_impersonate: 'admin@example.test',
      fetch_groups: true,
      groups_recurse_max_depth: 2,
    };
    assert.equal((await config(gsuite)).status, 204);
    const refusals: unknown[] = [
      { provider: 'okta-ish' },
      { fetch_groups: true },
      { provider: 'gsuite', fetch_groups: true },
      { provider: 'gsuite', groups_recurse_max_depth: -1 },
      { provider: 'azure', unknown_setting: 1 },
    ];
    for (const body of refusals) {
      const res = await config(body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.equal((await config({})).status, 204, 'an empty provider_config clears it');
    assert.deepEqual((await t.ok('GET', 'auth/jwt/config')).data.provider_config, {});
  });

  it('logs a bound token in: alias from user_claim, metadata from claim_mappings, groups as external groups', async () => {
    const accessor = (await t.ok('GET', 'sys/auth')).data['jwt/'].accessor;
    const group = (await t.ok('POST', 'identity/group', { name: 'deployers', type: 'external', policies: ['ops'] }))
      .data.id;
    await t.ok('POST', 'identity/group-alias', { name: 'deployers', mount_accessor: accessor, canonical_id: group });
    const res = await login('ci', await jwks.sign(claims()));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const auth = res.body.auth;
    assert.deepEqual(auth.token_policies, ['default', 'deploy']);
    assert.deepEqual(auth.identity_policies, ['ops']);
    assert.deepEqual(auth.metadata, { repo: 'acme/app', role: 'ci' });
    assert.equal(auth.lease_duration, 600);
    const entity = (await t.ok('GET', `identity/entity/id/${auth.entity_id}`)).data;
    assert.equal(entity.aliases[0].name, 'alice');
    assert.deepEqual(entity.group_ids, [group]);

    // A later login without the group leaves the external group.
    const again = await login('ci', await jwks.sign(claims({ groups: ['readers'] })));
    assert.equal(again.status, 200);
    assert.equal(again.body.auth.identity_policies, undefined);
    assert.equal((await t.ok('GET', `identity/group/id/${group}`)).data.member_entity_ids, null, 'no members');
  });

  it('refuses expired, early, wrong-audience, wrong-issuer and unbound tokens with 400', async () => {
    const cases: Record<string, Record<string, unknown>> = {
      expired: { exp: NOW - 60 - 150 - 1 },
      'not yet valid': { nbf: NOW + 60 + 150 + 5 },
      'wrong audience': { aud: 'someone-else' },
      'wrong issuer': { iss: 'https://evil.example' },
      'other repository': { repository: 'other/app' },
      'other ref': { ref: 'refs/heads/dev' },
      'no user claim': { actor: undefined },
    };
    for (const [label, extra] of Object.entries(cases)) {
      const res = await login('ci', await jwks.sign(claims(extra)));
      assert.equal(res.status, 400, `${label}: ${JSON.stringify(res.body)}`);
    }
    // Within the leeways it is accepted.
    assert.equal((await login('ci', await jwks.sign(claims({ exp: NOW - 200 })))).status, 200);
    const forged = await jwks.signWithUnpublishedKey(claims());
    assert.equal((await login('ci', forged)).status, 400);
    assert.equal((await login('ci', 'not.a.jwt')).status, 400);
    assert.equal((await login('nope', await jwks.sign(claims()))).status, 400);
  });

  it('refetches the JWKS when the provider rotates its key', async () => {
    assert.equal((await login('ci', await jwks.sign(claims()))).status, 200);
    await jwks.rotate();
    const token = await jwks.sign(claims());
    clock.advance(11_000);
    const res = await login('ci', token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(jwks.fetches >= 2);
  });

  it('answers 502 when the JWKS cannot be fetched, and recovers', async () => {
    await jwks.rotate();
    jwks.failing = true;
    clock.advance(11_000);
    const res = await login('ci', await jwks.sign(claims()));
    assert.equal(res.status, 502, JSON.stringify(res.body));
    jwks.failing = false;
    clock.advance(11_000);
    assert.equal((await login('ci', await jwks.sign(claims()))).status, 200);
  });

  it('verifies with static PEM keys (jwt_validation_pubkeys) and the default role', async () => {
    await t.ok('POST', 'sys/auth/pem', { type: 'jwt' });
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    await t.ok('POST', 'auth/pem/config', {
      jwt_validation_pubkeys: [await exportSPKI(publicKey)],
      default_role: 'svc',
    });
    await t.ok('POST', 'auth/pem/role/svc', { role_type: 'jwt', bound_subject: 'svc-1', user_claim: 'sub' });
    const jwt = await new SignJWT({ sub: 'svc-1', iat: NOW, exp: NOW + 60 })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    const res = await t.request('POST', 'auth/pem/login', { token: null, body: { jwt } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.role, 'svc');
    const other = await new SignJWT({ sub: 'svc-2', iat: NOW, exp: NOW + 60 })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    assert.equal((await login('svc', other, 'pem')).status, 400, 'bound_subject');
    const hs = await new SignJWT({ sub: 'svc-1', iat: NOW, exp: NOW + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a shared secret that is long enough'));
    assert.equal((await login('svc', hs, 'pem')).status, 400, 'symmetric algorithms are never accepted');
  });

  it('mounts as oidc too; an oidc role cannot log in with a bare JWT', async () => {
    await t.ok('POST', 'sys/auth/oidc', { type: 'oidc' });
    await t.ok('POST', 'auth/oidc/config', { jwks_url: jwks.url });
    await t.ok('POST', 'auth/oidc/role/web', {
      user_claim: 'sub',
      allowed_redirect_uris: 'http://localhost:8250/oidc/callback',
    });
    assert.equal((await t.ok('GET', 'auth/oidc/role/web')).data.role_type, 'oidc');
    const res = await login('web', await jwks.sign(claims()), 'oidc');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, ['role with oidc role_type is not allowed']);
  });
});
