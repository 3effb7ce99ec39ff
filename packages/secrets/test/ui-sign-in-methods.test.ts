import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { type OpenIdProvider, startOpenIdProvider } from './openid-provider.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { assertNoProblems, UiTab } from './ui-browser.js';
import { heading, nav, ROOT, startUiDev, type UiDev } from './ui-dev.testing.js';
import type { DevWard } from './ward-process.js';

// Issue 34: the sign-in screen's other methods against `ward server -dev` in Debian's Chromium:
// AppRole and a namespace by keyboard alone, LDAP against slapd, OIDC through a provider's popup.

describe('web UI on a dev server: signing in with AppRole, LDAP and OIDC', () => {
  let ui: UiDev;
  let dev: DevWard;
  let browser: Browser;
  let op: OpenIdProvider | undefined;
  let slapd: Slapd | undefined;
  /** What the tabs found wrong, reported by the last test. */
  const found: string[] = [];
  const api: UiDev['api'] = (...args) => ui.api(...args);

  before(async () => {
    ui = await startUiDev();
    ({ dev, browser } = ui);
    // The policy the methods' logins get.
    await api('PUT', 'sys/policies/acl/app-reader', { policy: 'path "secret/data/*" { capabilities = ["read"] }' });
  });
  after(async () => {
    await op?.close();
    await slapd?.stop();
    await ui?.stop();
  });

  it('signs in with AppRole, and with a token into a namespace, by keyboard alone', async () => {
    await api('POST', 'sys/auth/approle', { type: 'approle' });
    await api('POST', 'auth/approle/role/ci', { token_policies: 'app-reader' });
    const roleId = (await api('GET', 'auth/approle/role/ci/role-id')).data.role_id;
    const secretId = (await api('POST', 'auth/approle/role/ci/secret-id')).data.secret_id;
    await api('POST', 'sys/namespaces/team');
    const inTeam = await request(dev.url, 'POST', 'sys/mounts/team-kv', {
      token: ROOT,
      headers: { 'X-Vault-Namespace': 'team' },
      body: { type: 'kv', options: { version: '2' } },
    });
    assert.ok(inTeam.status < 300, JSON.stringify(inTeam.body));
    await (await UiTab.open(browser, dev.url)).use('approle', async (tab) => {
      const { page } = tab;
      await page.goto('/ui/');
      await heading(page, 'Sign in to Ward');
      // The first Tab reaches the skip link; the form is then filled and sent from the keyboard.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content');
      await page.getByLabel('Method').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.getByLabel('Method').inputValue(), 'approle');
      await page.keyboard.press('Tab');
      await page.keyboard.type(roleId);
      await page.keyboard.press('Tab');
      await page.keyboard.type(secretId);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const self = JSON.parse((await page.evaluate('sessionStorage.getItem("ward.session")')) as string);
      assert.deepEqual(self.policies, ['app-reader', 'default']);
      await page.getByRole('button', { name: 'Sign out' }).focus();
      await page.keyboard.press('Enter');

      await heading(page, 'Sign in to Ward');
      await page.getByLabel('Token').fill(ROOT);
      await page.getByLabel('Namespace').fill('team');
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'team-kv/', exact: true }).waitFor();
      assert.match((await page.getByLabel('Server status').textContent()) ?? '', /Namespaceteam/);
      assert.equal(await page.getByRole('link', { name: 'secret/', exact: true }).count(), 0);
      // Main navigation by keyboard: the focused link is followed with Enter.
      await nav(page, 'Policies').focus();
      await page.keyboard.press('Enter');
      await heading(page, 'ACL policies');
      found.push(...tab.problems());
    });
  });

  it('signs in with LDAP against slapd, at a mount path of its own', async () => {
    slapd = await startSlapd();
    await slapd.addUser('lena', 'lena-ldap-pw');
    await api('POST', 'sys/auth/corp-ldap', { type: 'ldap' });
    await api('POST', 'auth/corp-ldap/config', {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: `ou=users,${SUFFIX}`,
      userattr: 'cn',
      token_policies: 'app-reader',
    });
    await (await UiTab.open(browser, dev.url)).use('ldap', async (tab) => {
      const { page } = tab;
      await page.goto('/ui/');
      await page.getByLabel('Method').selectOption({ label: 'LDAP' });
      await page.getByLabel('Username').fill('lena');
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByLabel('Mount path').fill('corp-ldap');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Password').fill('lena-ldap-pw');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      assert.equal(await page.locator('.who-name').textContent(), 'corp-ldap-lena');
      found.push(...tab.problems());
    });
  });

  it('signs in with OIDC through the provider in a popup', async () => {
    op = await startOpenIdProvider({ redirectUris: [`${dev.url}/ui/vault/auth/oidc/oidc/callback`] });
    op.accounts.set('olga', { email: 'olga@example.test' });
    op.nextUser = 'olga';
    await api('POST', 'sys/auth/oidc', { type: 'oidc' });
    await api('POST', 'auth/oidc/config', {
      oidc_discovery_url: op.issuer,
      oidc_client_id: op.clientId,
      oidc_client_secret: op.clientSecret,
      default_role: 'people',
    });
    await api('POST', 'auth/oidc/role/people', {
      user_claim: 'email',
      oidc_scopes: 'email',
      allowed_redirect_uris: `${dev.url}/ui/vault/auth/oidc/oidc/callback`,
      token_policies: 'app-reader',
    });
    await (await UiTab.open(browser, dev.url)).use('oidc', async (tab) => {
      const { page } = tab;
      await page.goto('/ui/');
      await page.getByLabel('Method').selectOption({ label: 'OIDC' });
      const popup = tab.context.waitForEvent('page');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await (await popup).waitForEvent('close', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      assert.match((await page.locator('.who-name').textContent()) ?? '', /oidc-olga@example\.test|olga/);
      const token = JSON.parse((await page.evaluate('sessionStorage.getItem("ward.session")')) as string).token;
      const self = await request(dev.url, 'GET', 'auth/token/lookup-self', { token });
      assert.deepEqual(self.body.data.policies, ['app-reader', 'default']);
      found.push(...tab.problems());
    });
  });

  it('shows every screen without a serious or critical axe-core finding or console error', () => {
    assertNoProblems(found);
  });
});
