import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { assertNoProblems } from './ui-browser.js';
import { heading, nav, startUiDev, type UiDev } from './ui-dev.testing.js';
import type { DevWard } from './ward-process.js';

// Issue 34: the web UI against `ward server -dev` in Debian's Chromium: the Leases screen, and a
// token's expiry and renewal while the page is used.

describe('web UI on a dev server: leases and tokens', () => {
  let ui: UiDev;
  let dev: DevWard;
  /** What capture() and the tabs found wrong, reported by the last test. */
  const found: string[] = [];
  const api: UiDev['api'] = (...args) => ui.api(...args);
  const signedIn: UiDev['signedIn'] = (...args) => ui.signedIn(...args);

  before(async () => {
    ui = await startUiDev();
    ({ dev } = ui);
  });
  after(() => ui?.stop());

  it('Leases: browses, looks up, renews and revokes a lease, and revokes a prefix', async () => {
    await api('POST', 'sys/auth/userpass', { type: 'userpass' });
    await api('POST', 'auth/userpass/users/lee', { password: 'lee-password', token_ttl: '1h', token_max_ttl: '4h' });
    const first = (await api('POST', 'auth/userpass/login/lee', { password: 'lee-password' }, '')).auth.client_token;
    const second = (await api('POST', 'auth/userpass/login/lee', { password: 'lee-password' }, '')).auth.client_token;
    await (await signedIn()).use('leases', async (tab) => {
      const { page } = tab;
      await nav(page, 'Access').click();
      await page.getByRole('link', { name: 'Leases' }).click();
      await heading(page, 'Leases');
      await page.getByLabel('List leases under').fill('auth/userpass/login/');
      await page.getByRole('button', { name: 'List' }).click();
      await page.getByRole('button', { name: 'lee/' }).click();
      const leases = page.getByRole('list', { name: 'Leases under auth/userpass/login/lee/' });
      await leases.getByRole('listitem').nth(1).waitFor();
      await leases.getByRole('button').first().click();
      await page
        .getByRole('definition')
        .getByText(/^auth\/userpass\/login\/lee\//)
        .waitFor();
      // A token's lease is renewed through the token store: the server says so, in place.
      await page.getByLabel('Increment').fill('2h');
      await page.getByRole('button', { name: 'Renew' }).click();
      await page.getByRole('alert').getByText('tokens cannot be renewed through this endpoint').waitFor();
      found.push(...(await tab.capture('leases')));
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByRole('button', { name: 'Revoke now' }).click();
      await page.getByText(/^Revoked auth\/userpass\/login\/lee\//).waitFor();
      const alive = async (token: string) =>
        (await request(dev.url, 'GET', 'auth/token/lookup-self', { token })).status;
      assert.deepEqual([await alive(first), await alive(second)].sort(), [200, 403]);

      await page.getByLabel('Prefix to revoke').fill('auth/userpass/login/lee/');
      await page.getByRole('button', { name: 'Revoke prefix' }).click();
      await page.getByRole('button', { name: 'Revoke all of them' }).click();
      await page.getByText('Revoked every lease under auth/userpass/login/lee/.').waitFor();
      assert.deepEqual([await alive(first), await alive(second)], [403, 403]);
      found.push(...tab.problems());
    });
  });

  it('drops the token when it expires, and renews a renewable one while the page is used', async () => {
    const short = await api('POST', 'auth/token/create', { ttl: '8s', renewable: false });
    // Two tabs side by side: their waits overlap.
    const expires = (await signedIn(short.auth.client_token)).use('expiry', async (tab) => {
      await tab.page.getByText('Your token expired: sign in again.').waitFor({ timeout: 15_000 });
      assert.equal(await tab.page.evaluate('sessionStorage.length'), 0);
      found.push(...tab.problems());
    });
    const renewable = (await api('POST', 'auth/token/create', { ttl: '10s', explicit_max_ttl: '1h' })).auth
      .client_token;
    const renews = (await signedIn(renewable)).use('renewal', async (tab) => {
      const { page } = tab;
      await page.getByRole('link', { name: 'secret/', exact: true }).waitFor();
      // Past half its TTL (10 s, less the sign-in), a use of the page renews it; then it outlives its first TTL.
      await page.waitForTimeout(6000);
      await page.getByRole('link', { name: 'secret/', exact: true }).click();
      await heading(page, 'secret/');
      await page.waitForTimeout(6000);
      const lookup = await request(dev.url, 'GET', 'auth/token/lookup-self', { token: renewable });
      assert.equal(lookup.status, 200, 'renewed, so still valid after its first TTL');
      found.push(...tab.problems());
    });
    await Promise.all([expires, renews]);
  });

  it('shows every screen without a serious or critical axe-core finding, console error or sideways scrolling', () => {
    assertNoProblems(found);
  });
});
