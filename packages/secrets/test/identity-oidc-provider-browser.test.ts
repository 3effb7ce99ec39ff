import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { startAuthorization } from './oidc-relying-party.testing.js';
import { launchChromium } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 33: the OpenID provider's browser flow. A relying party (openid-client) sends Chromium to
// the discovery document's authorization_endpoint, the web UI's page signs the user in (userpass)
// and sends the browser back to the relying party's redirect URI with the code.

const ROOT = 'oidc-browser-root';

describe('identity OIDC provider: the authorization endpoint in the web UI, driven by Chromium', () => {
  let dev: DevWard;
  let browser: Browser;
  let callbacks: Server;
  const arrived: URL[] = [];
  let redirectUri = '';

  before(async () => {
    [dev, browser] = await Promise.all([startDevWard(ROOT), launchChromium()]);
    callbacks = createServer((req, res) => {
      const url = new URL(req.url ?? '/', redirectUri);
      // Chromium also asks this origin for its favicon.
      if (url.pathname === '/callback') arrived.push(url);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('signed in');
    });
    callbacks.listen(0, '127.0.0.1');
    await once(callbacks, 'listening');
    redirectUri = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await browser?.close();
    callbacks?.close();
    dev?.ward.child.kill('SIGKILL');
  });

  it('signs a user in through the UI and hands the relying party a code it exchanges for a valid ID token', async () => {
    await dev.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    await dev.ok('POST', 'auth/userpass/users/carol', { password: 'carol-pw' });
    await dev.ok('POST', 'identity/oidc/scope/user', { template: '{"username": {{identity.entity.name}}}' });
    await dev.ok('POST', 'identity/oidc/client/web', { redirect_uris: [redirectUri], assignments: ['allow_all'] });
    const client = (await dev.ok('GET', 'identity/oidc/client/web')).data;
    await dev.ok('POST', 'identity/oidc/provider/web', {
      allowed_client_ids: [client.client_id],
      scopes_supported: 'user',
    });

    const issuer = new URL(`${dev.url}/v1/identity/oidc/provider/web`);
    const { config, verifier, state, nonce, authUrl } = await startAuthorization(
      issuer,
      client,
      redirectUri,
      'openid user',
    );
    assert.equal(authUrl.origin, dev.url);

    const page = await (await browser.newContext()).newPage();
    await page.goto(authUrl.href);
    await page.getByRole('heading', { name: 'Sign in to Ward' }).waitFor();
    await page.getByLabel('Method').selectOption({ label: 'Userpass' });
    await page.getByLabel('Username').fill('carol');
    await page.getByLabel('Password').fill('carol-pw');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri), { timeout: 20_000 });
    assert.equal(await page.textContent('body'), 'signed in');
    const callback = arrived.at(-1);
    assert.ok(callback);
    assert.equal(callback.searchParams.get('state'), state);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    assert.equal(claims?.iss, issuer.href);
    assert.equal(claims?.aud, client.client_id);
    assert.ok(typeof claims?.username === 'string' && claims.username !== '', 'the scope template’s claim');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims?.sub));
    assert.equal(info.username, claims?.username);

    // A redirect URI the client does not list: the error is shown in place, the browser stays.
    const bad = new URL(authUrl);
    bad.searchParams.set('redirect_uri', 'https://elsewhere.example/cb');
    await page.goto(bad.href);
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid_redirect_uri/);
  });
});
