import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { startAuthorization } from './oidc-relying-party.testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 33: Ward as an OpenID provider (identity/oidc/provider/*), driven by a real relying party
// (openid-client) through bin/ward: discovery, authorization code + PKCE, token exchange with
// ID token validation, userinfo.

const ROOT = 'oidc-provider-root';
const REDIRECT = 'http://127.0.0.1:9999/callback';

describe('identity OIDC provider through bin/ward with openid-client as the relying party', () => {
  let dev: DevWard;
  let userToken = '';
  let entityId = '';
  let groupId = '';

  before(async () => {
    dev = await startDevWard(ROOT);
    await dev.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    await dev.ok('POST', 'auth/userpass/users/alice', { password: 'pw' });
    const login = await dev.ok('POST', 'auth/userpass/login/alice', { password: 'pw' }, null);
    userToken = login.auth.client_token;
    entityId = login.auth.entity_id;
    await dev.ok('POST', `identity/entity/id/${entityId}`, { name: 'alice', metadata: { email: 'alice@example.com' } });
    groupId = (await dev.ok('POST', 'identity/group', { name: 'engineers', member_entity_ids: [entityId] })).data.id;
  });
  after(() => {
    dev?.ward.child.kill('SIGKILL');
  });

  it('has the default provider, key and allow_all assignment', async () => {
    const provider = (await dev.ok('GET', 'identity/oidc/provider/default')).data;
    assert.deepEqual(provider, {
      issuer: `${dev.url}/v1/identity/oidc/provider/default`,
      allowed_client_ids: ['*'],
      scopes_supported: [],
    });
    assert.ok((await dev.ok('LIST', 'identity/oidc/key')).data.keys.includes('default'));
    assert.deepEqual((await dev.ok('GET', 'identity/oidc/assignment/allow_all')).data, {
      entity_ids: ['*'],
      group_ids: ['*'],
    });
    assert.equal((await dev.call('DELETE', 'identity/oidc/provider/default')).status, 400);
    assert.equal((await dev.call('POST', 'identity/oidc/assignment/allow_all', { entity_ids: 'x' })).status, 400);
  });

  it('signs a confidential client in with code + PKCE, validates the ID token and reads userinfo', async () => {
    await dev.ok('POST', 'identity/oidc/scope/groups', {
      template: '{"groups": {{identity.entity.groups.names}}}',
      description: 'group names',
    });
    await dev.ok('POST', 'identity/oidc/scope/profile', {
      template: Buffer.from('{"name": {{identity.entity.name}}, "email": {{identity.entity.metadata.email}}}').toString(
        'base64',
      ),
    });
    assert.equal(
      (await dev.call('POST', 'identity/oidc/scope/bad', { template: '{"sub": {{identity.entity.id}}}' })).status,
      400,
      'a reserved claim',
    );
    assert.equal(
      (await dev.call('POST', 'identity/oidc/scope/bad', { template: '{"x": {{identity.entity.id}' })).status,
      400,
    );
    await dev.ok('POST', 'identity/oidc/assignment/engineers', { group_ids: [groupId] });
    await dev.ok('POST', 'identity/oidc/key/app', { allowed_client_ids: '*', algorithm: 'ES256' });
    await dev.ok('POST', 'identity/oidc/client/app', {
      key: 'app',
      redirect_uris: [REDIRECT],
      assignments: ['engineers'],
      id_token_ttl: '30m',
      access_token_ttl: '1h',
    });
    const client = (await dev.ok('GET', 'identity/oidc/client/app')).data;
    assert.match(client.client_id, /^[0-9A-Za-z]{32}$/);
    assert.match(client.client_secret, /^hvo_secret_[0-9A-Za-z]{64}$/);
    assert.equal(client.client_type, 'confidential');
    assert.equal((await dev.call('POST', 'identity/oidc/client/app', { key: 'default' })).status, 400, 'key is fixed');
    const created = await dev.ok('POST', 'identity/oidc/provider/corp', {
      allowed_client_ids: [client.client_id],
      scopes_supported: ['groups', 'profile'],
    });
    assert.equal(created, undefined);
    const issuer = new URL(`${dev.url}/v1/identity/oidc/provider/corp`);

    const { config, verifier, state, nonce, authUrl } = await startAuthorization(
      issuer,
      client,
      REDIRECT,
      'openid groups profile',
    );
    assert.equal(config.serverMetadata().issuer, issuer.href);
    assert.equal(authUrl.pathname, '/ui/vault/identity/oidc/provider/corp/authorize');
    // What the established UI does: the signed-in user's token calls the API's authorize.
    const query = Object.fromEntries(authUrl.searchParams);
    const refusedNoToken = await dev.call('POST', 'identity/oidc/provider/corp/authorize', query, null);
    assert.equal(refusedNoToken.status, 403, 'authorize needs a Ward token');
    const granted = await dev.ok('POST', 'identity/oidc/provider/corp/authorize', query, userToken);
    assert.equal(granted.state, state);
    const callback = new URL(`${REDIRECT}?code=${granted.code}&state=${state}`);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    assert.ok(claims);
    assert.equal(claims.iss, issuer.href);
    assert.equal(claims.sub, entityId);
    assert.equal(claims.aud, client.client_id);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.exp - claims.iat, 1800);
    assert.deepEqual(claims.groups, ['engineers']);
    assert.equal(claims.name, 'alice');
    assert.equal(claims.email, 'alice@example.com');
    assert.equal(tokens.expires_in, 3600);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, entityId);
    assert.deepEqual(info, { sub: entityId, groups: ['engineers'], name: 'alice', email: 'alice@example.com' });

    // A code is good once.
    await assert.rejects(
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
      (err: { error?: string }) => err.error === 'invalid_grant',
    );
    // The wrong verifier is refused.
    const again = await dev.ok('POST', 'identity/oidc/provider/corp/authorize', query, userToken);
    await assert.rejects(
      oidc.authorizationCodeGrant(config, new URL(`${REDIRECT}?code=${again.code}&state=${state}`), {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: state,
      }),
      (err: { error?: string }) => err.error === 'invalid_grant',
    );
    // A wrong secret fails client authentication (401).
    const wrong = await oidc.discovery(issuer, client.client_id, 'hvo_secret_wrong', undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const third = await dev.ok('POST', 'identity/oidc/provider/corp/authorize', query, userToken);
    await assert.rejects(
      oidc.authorizationCodeGrant(wrong, new URL(`${REDIRECT}?code=${third.code}&state=${state}`), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      }),
      // 401 with the established `WWW-Authenticate: Basic` challenge.
      (err: { status?: number; cause?: Array<{ scheme: string }> }) =>
        err.status === 401 && err.cause?.[0]?.scheme === 'basic',
    );
    // client_secret_post: the credentials in the form.
    const post = await oidc.discovery(
      issuer,
      client.client_id,
      undefined,
      oidc.ClientSecretPost(client.client_secret),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const fourth = await dev.ok('POST', 'identity/oidc/provider/corp/authorize', query, userToken);
    const posted = await oidc.authorizationCodeGrant(post, new URL(`${REDIRECT}?code=${fourth.code}&state=${state}`), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(posted.claims()?.sub, entityId);
    // The provider's JWKS holds the client's key; the default provider's too (it allows any client).
    const jwks = await (await fetch(`${issuer.href}/.well-known/keys`)).json();
    assert.equal(jwks.keys.length, 2, 'the client key’s signing key and its next one');
    assert.ok(jwks.keys.every((k: { alg: string }) => k.alg === 'ES256'));
    // userinfo refuses a token it did not issue, and one sent otherwise than as a Bearer token.
    const bogus = await fetch(`${issuer.href}/userinfo`, { headers: { Authorization: 'Bearer nope' } });
    assert.equal(bogus.status, 401);
    assert.match(bogus.headers.get('www-authenticate') ?? '', /invalid_token/);
    const noBearer = await fetch(`${issuer.href}/userinfo`, { headers: { 'X-Vault-Token': tokens.access_token } });
    assert.equal(noBearer.status, 401);
  });

  it('lets a public client in with PKCE alone, and refuses an entity outside the assignments', async () => {
    await dev.ok('POST', 'identity/oidc/client/spa', {
      redirect_uris: ['http://localhost:1234/cb'],
      assignments: ['allow_all'],
      client_type: 'public',
    });
    const spa = (await dev.ok('GET', 'identity/oidc/client/spa')).data;
    assert.equal(spa.client_secret, undefined);
    const issuer = new URL(`${dev.url}/v1/identity/oidc/provider/default`);
    const config = await oidc.discovery(issuer, spa.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    // A loopback redirect matches on any port (RFC 8252 7.3).
    const redirect = 'http://localhost:5555/cb';
    const base = {
      client_id: spa.client_id,
      redirect_uri: redirect,
      scope: 'openid',
      response_type: 'code',
      state: 's1',
    };
    const noPkce = await dev.call(
      'GET',
      `identity/oidc/provider/default/authorize?${new URLSearchParams(base)}`,
      undefined,
      userToken,
    );
    assert.equal(noPkce.status, 400);
    assert.deepEqual(noPkce.body, {
      error: 'invalid_request',
      error_description: 'PKCE is required for public clients',
      state: 's1',
    });
    const query = {
      ...base,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    const granted = await dev.ok(
      'GET',
      `identity/oidc/provider/default/authorize?${new URLSearchParams(query)}`,
      undefined,
      userToken,
    );
    const tokens = await oidc.authorizationCodeGrant(config, new URL(`${redirect}?code=${granted.code}&state=s1`), {
      pkceCodeVerifier: verifier,
      expectedState: 's1',
    });
    assert.equal(tokens.claims()?.sub, entityId);
    assert.deepEqual(await oidc.fetchUserInfo(config, tokens.access_token, entityId), { sub: entityId });

    // An entity outside the client's assignments is refused at authorize.
    await dev.ok('POST', 'auth/userpass/users/bob', { password: 'pw' });
    const bob = (await dev.ok('POST', 'auth/userpass/login/bob', { password: 'pw' }, null)).auth.client_token;
    const app = (await dev.ok('GET', 'identity/oidc/client/app')).data;
    const denied = await dev.call(
      'POST',
      'identity/oidc/provider/corp/authorize',
      { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', response_type: 'code' },
      bob,
    );
    assert.equal(denied.status, 400);
    assert.equal(denied.body.error, 'access_denied');
    // Referenced resources cannot be deleted.
    assert.equal((await dev.call('DELETE', 'identity/oidc/assignment/engineers')).status, 400);
    assert.equal((await dev.call('DELETE', 'identity/oidc/scope/groups')).status, 400);
    assert.equal((await dev.call('DELETE', 'identity/oidc/key/app')).status, 400);
    const listed = (await dev.ok('LIST', `identity/oidc/provider?allowed_client_id=${app.client_id}`)).data.keys.sort();
    assert.deepEqual(listed, ['corp', 'default']);
  });
});
