import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { freePort, startTestServer, type TestServer } from '../src/server/testing.js';
import { type OpenIdProvider, startOpenIdProvider } from './openid-provider.js';
import { startOidcCliLogin } from './ward-process.js';

// Issue 31: `ward login -method=oidc` driven by a real browser (Debian's headless Chromium): the
// provider's redirects, its form_post page (submitted by the browser's own script) to the CLI's
// listener, and the CLI finishing the login.

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
};

describe('oidc login in a browser (Chromium)', () => {
  let t: TestServer;
  let op: OpenIdProvider;
  let browser: Browser;
  let port = 0;
  before(async () => {
    port = await freePort();
    op = await startOpenIdProvider({ redirectUris: [`http://localhost:${port}/oidc/callback`] });
    op.accounts.set('dana', { email: 'dana@example.test', groups: ['ops'] });
    op.nextUser = 'dana';
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/oidc', { type: 'oidc' });
    await t.ok('POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
      oidc_response_mode: 'form_post',
      default_role: 'people',
    });
    await t.ok('POST', 'auth/oidc/role/people', {
      user_claim: 'email',
      oidc_scopes: 'email',
      allowed_redirect_uris: `http://localhost:${port}/oidc/callback`,
      token_policies: 'people',
    });
    browser = await chromium.launch(LAUNCH);
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await op?.close();
  });

  it('signs in through the provider’s pages and the form_post back to the CLI', async () => {
    const { authUrl, exited, stderr, savedToken } = await startOidcCliLogin(t.url, port);
    const page = await browser.newPage();
    try {
      await page.goto(authUrl);
      await page.waitForURL(`http://localhost:${port}/oidc/callback`, { timeout: 30_000 });
      assert.match((await page.textContent('h1')) ?? '', /Signed in to Ward/);
    } finally {
      await page.close();
    }
    assert.equal(await exited, 0, stderr());
    const self = await t.request('GET', 'auth/token/lookup-self', { token: await savedToken() });
    assert.deepEqual(self.body.data.policies, ['default', 'people']);
    assert.equal(self.body.data.meta.role, 'people');
  });
});
