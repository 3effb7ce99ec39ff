import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { browse, type OpenIdProvider, startOpenIdProvider } from './openid-provider.js';

// Issue 31: the OIDC authorization-code flow (state, nonce, PKCE) against a real OpenID
// provider (`oidc-provider`), its answer in the query and as form_post, and its key rotating.

const REDIRECT = 'http://localhost:8250/oidc/callback';

describe('oidc auth method against a real OpenID provider', () => {
  let t: TestServer;
  let op: OpenIdProvider;
  let clock: FakeClock;
  const authUrl = async (body: Record<string, unknown> = {}) =>
    (await t.ok('POST', 'auth/oidc/oidc/auth_url', { role: 'web', redirect_uri: REDIRECT, ...body })).data
      .auth_url as string;
  const callback = (query: URLSearchParams) =>
    t.request('GET', `auth/oidc/oidc/callback?${query.toString()}`, { token: null });

  before(async () => {
    op = await startOpenIdProvider({ redirectUris: [REDIRECT] });
    op.accounts.set('alice', { email: 'alice@example.test', groups: ['engineering', 'oncall'] });
    op.accounts.set('bob', { email: 'bob@example.test', groups: ['sales'] });
    // Ward's clock follows the provider's, and is moved past the key set's refetch pause.
    clock = new FakeClock(new Date().toISOString());
    t = await startTestServer({ clock });
    await t.ok('POST', 'sys/auth/oidc', { type: 'oidc' });
    await t.ok('POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
      default_role: 'web',
    });
    await t.ok('POST', 'auth/oidc/role/web', {
      user_claim: 'email',
      groups_claim: 'groups',
      oidc_scopes: 'email,groups',
      allowed_redirect_uris: REDIRECT,
      claim_mappings: { email: 'email' },
      token_policies: 'web',
    });
  });
  after(async () => {
    await t.stop();
    await op.close();
  });

  it('builds the authorization URL with client_id first, state, nonce and an S256 challenge', async () => {
    const url = new URL(await authUrl());
    assert.ok(url.href.startsWith(`${op.issuer}/auth?client_id=${op.clientId}&`), url.href);
    const q = url.searchParams;
    assert.equal(q.get('redirect_uri'), REDIRECT);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('state') ?? '', /^st_/);
    assert.match(q.get('nonce') ?? '', /^n_/);
    assert.equal(q.get('scope'), 'openid email groups');
    const bad = await t.request('POST', 'auth/oidc/oidc/auth_url', {
      token: null,
      body: { role: 'web', redirect_uri: 'https://evil.example/cb' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, ['unauthorized redirect_uri: https://evil.example/cb']);
  });

  it('logs a user in through the provider; the groups claim makes external group members', async () => {
    const accessor = (await t.ok('GET', 'sys/auth')).data['oidc/'].accessor;
    const group = (await t.ok('POST', 'identity/group', { name: 'eng', type: 'external', policies: ['eng'] })).data.id;
    await t.ok('POST', 'identity/group-alias', { name: 'engineering', mount_accessor: accessor, canonical_id: group });
    op.nextUser = 'alice';
    const { query } = await browse(await authUrl({ client_nonce: 'cli-nonce' }), REDIRECT);
    assert.ok(query?.get('code'), 'the provider answered with a code');
    assert.ok(query);
    query.set('client_nonce', 'cli-nonce');
    const res = await callback(query);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.metadata, { email: 'alice@example.test', role: 'web' });
    assert.deepEqual(res.body.auth.token_policies, ['default', 'web']);
    assert.deepEqual(res.body.auth.identity_policies, ['eng']);
    // The state is used once.
    const replay = await callback(query);
    assert.equal(replay.status, 400);
    assert.deepEqual(replay.body.errors, ['Expired or missing OAuth state.']);
  });

  it('refuses a callback without the client nonce it was started with, or with a forged code', async () => {
    const first = await browse(await authUrl({ client_nonce: 'mine' }), REDIRECT);
    assert.ok(first.query);
    first.query.set('client_nonce', 'someone-else');
    assert.equal((await callback(first.query)).status, 400);
    const second = await browse(await authUrl(), REDIRECT);
    assert.ok(second.query);
    second.query.set('code', 'forged-code');
    const forged = await callback(second.query);
    assert.equal(forged.status, 400, JSON.stringify(forged.body));
  });

  it('accepts the provider’s answer as form_post', async () => {
    await t.ok('POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
      oidc_response_mode: 'form_post',
      default_role: 'web',
    });
    op.nextUser = 'bob';
    const url = await authUrl();
    assert.equal(new URL(url).searchParams.get('response_mode'), 'form_post');
    const { form } = await browse(url, REDIRECT);
    assert.ok(form?.get('code'), 'the provider posted a code');
    assert.ok(form);
    const res = await t.request('POST', 'auth/oidc/oidc/callback', {
      token: null,
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.email, 'bob@example.test');
    assert.equal(res.body.auth.identity_policies, undefined, 'bob is not in engineering');
  });

  it('fetches the provider’s keys again when it rotates them', async () => {
    op.nextUser = 'alice';
    const login = async () => {
      const { form } = await browse(await authUrl(), REDIRECT);
      assert.ok(form);
      return t.request('POST', 'auth/oidc/oidc/callback', {
        token: null,
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    };
    assert.equal((await login()).status, 200, 'the key set is cached');
    await op.rotateKeys();
    clock.advance(11_000);
    const res = await login();
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  it('answers 400 for an unconfigured flow and 502 when the provider is down', async () => {
    await t.ok('POST', 'sys/auth/oidc2', { type: 'oidc' });
    await t.ok('POST', 'auth/oidc2/config', { oidc_discovery_url: op.issuer });
    await t.ok('POST', 'auth/oidc2/role/web', { user_claim: 'sub', allowed_redirect_uris: REDIRECT });
    const res = await t.request('POST', 'auth/oidc2/oidc/auth_url', { body: { role: 'web', redirect_uri: REDIRECT } });
    assert.equal(res.status, 400);
    const wrong = await t.request('POST', 'auth/oidc2/config', { body: { oidc_discovery_url: `${op.issuer}/nope` } });
    assert.equal(wrong.status, 400, 'a discovery URL that does not answer is refused at config time');
  });
});
