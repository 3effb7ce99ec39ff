import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { assertNoProblems, launchChromium, UiTab } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 34: an LDAP engine's Library tab (service account check-out) in Debian's Chromium against
// `ward server -dev` and a real slapd: sets, status, check out (password masked), check in.

const ROOT = 'ui-ldap-library-root';
const USERDN = `ou=users,${SUFFIX}`;
const dnOf = (cn: string) => `cn=${cn},${USERDN}`;
// May check out and in, and read the set and its status; may not change the set or force a check-in.
const BORROWER_POLICY = `
path "ldap/library/team" { capabilities = ["read"] }
path "ldap/library/team/status" { capabilities = ["read"] }
path "ldap/library/team/check-out" { capabilities = ["update"] }
path "ldap/library/team/check-in" { capabilities = ["update"] }
`;

describe('web UI LDAP library sets', () => {
  let dev: DevWard;
  let browser: Browser;
  let slapd: Slapd;
  let tab: UiTab;
  const found: string[] = [];
  const api = (method: string, path: string, body?: unknown, token = ROOT) =>
    request(dev.url, method, path, { token, ...(body === undefined ? {} : { body }) });

  const signIn = async (t: UiTab, token: string) => {
    await t.page.goto('/ui/');
    await t.page.getByLabel('Method').selectOption({ label: 'Token' });
    await t.page.getByLabel('Token').fill(token);
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.getByRole('link', { name: 'Secrets', exact: true }).waitFor();
  };
  const statusCell = (scope: UiTab, account: string) =>
    scope.page.getByRole('row').filter({ has: scope.page.getByRole('cell', { name: account, exact: true }) });

  before(async () => {
    [dev, browser, slapd] = await Promise.all([startDevWard(ROOT), launchChromium(), startSlapd()]);
    assert.equal((await api('POST', 'sys/mounts/ldap', { type: 'ldap' })).status, 204);
    const config = { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url, userdn: USERDN };
    assert.equal((await api('POST', 'ldap/config', config)).status, 204);
    assert.equal((await api('PUT', 'sys/policies/acl/borrower', { policy: BORROWER_POLICY })).status, 204);
    for (const cn of ['lib-u1', 'lib-u2']) await slapd.addUser(cn, 'before-ward');
    tab = await UiTab.open(browser, dev.url);
    await signIn(tab, ROOT);
  });
  after(async () => {
    await tab?.context.close();
    await browser?.close();
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    await slapd?.stop();
  });

  /** Reveals the secret `field` of the credentials in `scope` and reads it. */
  const reveal = async (scope: Locator, field: string) => {
    const cell = scope.locator(`dt:text-is("${field}") + dd`);
    await cell.getByRole('button', { name: 'Reveal' }).click();
    return ((await cell.locator('.code').textContent()) ?? '').trim();
  };

  it('creates a set, checks an account out (password masked, binds) and checks it in (rotated)', async () => {
    const { page } = tab;
    await page.goto('/ui/secrets');
    await page.getByRole('link', { name: 'ldap/', exact: true }).click();
    await page.getByRole('navigation', { name: 'LDAP engine sections' }).getByRole('link', { name: 'Library' }).click();
    await page.getByText('No library sets yet.').waitFor();
    found.push(...(await tab.capture('ldap-library')));
    await page.getByLabel('Set name').fill('team');
    await page.getByLabel('Service accounts').fill('lib-u1\nlib-u2');
    await page.getByLabel('TTL', { exact: true }).fill('1h');
    await page.getByLabel('Maximum TTL').fill('2h');
    await page.getByRole('button', { name: 'Create set' }).click();
    await page.getByRole('heading', { name: 'team', exact: true }).waitFor();
    assert.equal(await slapd.canBind(dnOf('lib-u1'), 'before-ward'), false, 'rotated when the set was made');
    await statusCell(tab, 'lib-u2').getByText('Available').waitFor();
    found.push(...(await tab.capture('ldap-library-set')));

    await page.getByRole('button', { name: 'Check out' }).click();
    const out = page.getByRole('region', { name: 'Checked-out account' });
    await out.waitFor();
    const account = ((await out.locator('dt:text-is("service_account_name") + dd').textContent()) ?? '').trim();
    assert.equal(account, 'lib-u1');
    assert.match(
      ((await out.locator('dt:text-is("lease_id") + dd').textContent()) ?? '').trim(),
      /^ldap\/library\/team\/check-out\//,
    );
    assert.ok(await out.getByRole('img', { name: 'password: hidden value', exact: true }).isVisible());
    found.push(...(await tab.capture('ldap-library-checked-out')));
    const password = await reveal(out, 'password');
    assert.ok(await slapd.canBind(dnOf(account), password), 'the checked-out password binds to slapd');
    assert.doesNotMatch(await tab.exposedPlaces(), new RegExp(password));
    await statusCell(tab, 'lib-u1').getByText('Checked out').waitFor();

    await page.getByRole('button', { name: 'Check in lib-u1' }).click();
    await statusCell(tab, 'lib-u1').getByText('Available').waitFor();
    assert.equal(await slapd.canBind(dnOf(account), password), false, 'the old password is refused after check-in');
    found.push(...tab.problems());
  });

  it("a borrower's token sees no force and no settings; another's check-out is refused in place", async () => {
    const created = await api('POST', 'auth/token/create', { policies: ['borrower'] });
    const borrower = (created.body as { auth: { client_token: string } }).auth.client_token;
    const other = await api('POST', 'ldap/library/team/check-out', {});
    assert.equal(other.status, 200, 'root holds lib-u1');
    await (await UiTab.open(browser, dev.url)).use('ldap-library-borrower', async (narrow) => {
      await signIn(narrow, borrower);
      await narrow.page.goto('/ui/secrets/ldap/ldap/library/team');
      await narrow.page.getByRole('heading', { name: 'Accounts' }).waitFor();
      await narrow.page.getByRole('button', { name: 'Check out' }).waitFor();
      assert.equal(await narrow.page.getByRole('button', { name: /^Force check-in/ }).count(), 0);
      assert.equal(await narrow.page.getByRole('button', { name: 'Save set' }).count(), 0);
      assert.equal(await narrow.page.getByRole('button', { name: 'Delete set' }).count(), 0);
      await narrow.page.getByRole('button', { name: 'Check in lib-u1' }).click();
      await narrow.page
        .getByRole('alert')
        .getByText(`"lib-u1" can't be checked in because it wasn't checked out by the caller`)
        .waitFor();
      found.push(...(await narrow.capture('ldap-library-refused')));
      // The ACL refuses what the screen hides.
      const forced = await api(
        'POST',
        'ldap/library/manage/team/check-in',
        { service_account_names: 'lib-u1' },
        borrower,
      );
      assert.equal(forced.status, 403);
      found.push(...narrow.problems());
    });

    const { page } = tab;
    await page.reload();
    await page.getByRole('button', { name: 'Force check-in of lib-u1' }).click();
    await statusCell(tab, 'lib-u1').getByText('Available').waitFor();
  });

  it('edits the set, refuses its deletion while an account is out, and deletes it', async () => {
    const { page } = tab;
    await page.getByLabel('TTL', { exact: true }).fill('30m');
    await page.getByRole('button', { name: 'Save set' }).click();
    await page.getByText("Empty: the set's TTL (1800 s)", { exact: false }).waitFor();
    const set = await api('GET', 'ldap/library/team');
    assert.equal((set.body as { data: { ttl: number } }).data.ttl, 1800);

    await page.getByRole('button', { name: 'Check out' }).click();
    await statusCell(tab, 'lib-u1').getByText('Checked out').waitFor();
    await page.getByRole('button', { name: 'Delete set' }).click();
    await page.getByRole('button', { name: 'Delete it' }).click();
    await page.getByRole('alert').getByText(`"lib-u1" can't be deleted because it is currently checked out`).waitFor();
    await page.getByRole('button', { name: 'Check in lib-u1' }).click();
    await statusCell(tab, 'lib-u1').getByText('Available').waitFor();
    await page.getByRole('button', { name: 'Delete set' }).click();
    await page.getByRole('button', { name: 'Delete it' }).click();
    await page.getByText('No library sets yet.').waitFor();
    assert.equal((await api('GET', 'ldap/library/team')).status, 404);
    found.push(...tab.problems());
  });

  it('finds no accessibility, console or CSP problem on any screen', () => {
    assertNoProblems([...new Set(found)]);
  });
});
