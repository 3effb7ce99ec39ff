import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { assertNoProblems, launchChromium, UiTab } from './ui-browser.js';
import { startWard, type WardProcess } from './ward-process.js';

// Issue 34, "Done when": on a configured server (`ui = true`, SQLite), in the browser only: initialise,
// unseal, sign in, write a policy and get a line-numbered error for a typo, enable userpass and make a
// user, sign in with it, create a KV v2 secret with two keys, see its versions, restore an old one, and
// revoke a lease.

const VALUES = ['walkthrough-first-pw', 'walkthrough-second-pw'];

describe('web UI walk-through on a configured server', () => {
  let dir: string;
  let ward: WardProcess;
  let url: string;
  let browser: Browser;
  const found: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-ui-'));
    const config = join(dir, 'ward.hcl');
    await writeFile(
      config,
      `ui = true\ncluster_name = "ui-walkthrough"\nstorage "sqlite" {\n  path = "${join(dir, 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    ward = startWard(['server', `-config=${config}`]);
    [[, url = ''], browser] = await Promise.all([ward.waitFor(/listening: url=(http:\/\/\S+)/), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    ward?.child.kill('SIGTERM');
    await ward?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('initialises, unseals, writes a policy, signs in with userpass, keeps versions of a secret and revokes a lease', async () => {
    const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
    const signIn = async (page: Page, fill: () => Promise<void>) => {
      await heading(page, 'Sign in to Ward');
      await fill();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    };
    await (await UiTab.open(browser, url)).use('walkthrough', async (tab) => {
      const { page } = tab;
      await page.goto('/');
      await heading(page, 'Initialize');
      assert.match((await page.getByLabel('Server status').textContent()) ?? '', /Not initialized/);
      found.push(...(await tab.capture('initialize')));
      await page.getByLabel('Key shares').fill('3');
      await page.getByLabel('Key threshold').fill('2');
      await page.getByRole('button', { name: 'Initialize' }).click();
      await heading(page, 'Keep these keys');
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download keys' }).click();
      const keys = JSON.parse(await readFile((await (await download).path()) as string, 'utf8'));
      assert.equal(keys.keys_base64.length, 3);
      assert.match(keys.root_token, /^hvs\./);
      await page.getByRole('button', { name: 'Continue to unseal' }).click();

      await heading(page, 'Unseal');
      await page.getByText('0 of 2 keys given').waitFor();
      found.push(...(await tab.capture('unseal')));
      await page.getByLabel('Unseal key').fill(keys.keys_base64[0]);
      await page.getByRole('button', { name: 'Unseal', exact: true }).click();
      await page.getByText('1 of 2 keys given').waitFor();
      assert.equal(await page.getByRole('progressbar', { name: 'Progress' }).getAttribute('value'), '1');
      await page.getByRole('button', { name: 'Reset' }).click();
      await page.getByText('0 of 2 keys given').waitFor();
      await page.getByLabel('Unseal key').fill(keys.keys_base64[2]);
      await page.getByRole('button', { name: 'Unseal', exact: true }).click();
      await page.getByText('1 of 2 keys given').waitFor();
      await page.getByLabel('Unseal key').fill(keys.keys_base64[1]);
      await page.getByRole('button', { name: 'Unseal', exact: true }).click();
      await signIn(page, () => page.getByLabel('Token').fill(keys.root_token));
      const status = (await page.getByLabel('Server status').textContent()) ?? '';
      assert.match(status, /Unsealed/);
      assert.match(status, /Clusterui-walkthrough/);
      assert.match(status, /HAoff/);
      assert.match(status, /Namespaceroot/);

      // A KV v2 engine (a configured server's secret/ is KV version 1).
      await page.getByRole('link', { name: 'Enable new engine' }).click();
      await page.getByLabel('Type').selectOption({ label: 'KV version 2' });
      await page.getByLabel('Path').fill('kv');
      await page.getByRole('button', { name: 'Enable engine' }).click();
      await heading(page, 'kv/');
      await page.getByText('KV version 2').waitFor();

      // A policy: a typo first, answered with its line, then the right text.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Policies' }).click();
      await page.getByRole('link', { name: 'Create policy' }).click();
      await page.getByLabel('Name').fill('app');
      await page.getByRole('textbox', { name: 'Policy' }).click();
      // Cleared first: Chromium typing over a selection of highlighted text would style it inline (which the CSP refuses).
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('path "kv/*" {\n  capabilities = ["create", "raed", "update", "list"]\n}\n');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByRole('alert').getByText('Line 2:').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid capability "raed"/);
      await page.getByRole('textbox', { name: 'Policy' }).click();
      // Cleared first: Chromium typing over a selection of highlighted text would style it inline (which the CSP refuses).
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('path "kv/*" {\n  capabilities = ["create", "read", "update", "list"]\n}\n');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Policy saved.').waitFor();

      // Userpass: enabled, and its user made, on the Access screens.
      const root = keys.root_token as string;
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access' }).click();
      await page.getByRole('link', { name: 'Auth methods' }).click();
      await page.getByRole('link', { name: 'Enable new method' }).click();
      await page.getByLabel('Type').selectOption('userpass');
      await page.getByRole('button', { name: 'Enable method' }).click();
      await heading(page, 'userpass/');
      await page.getByLabel('Username').fill('walker');
      await page.getByLabel('Password').fill('walk-password');
      await page.getByLabel('Policies').fill('app');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('list', { name: 'Users' }).getByText('walker', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(page, async () => {
        await page.getByLabel('Method').selectOption({ label: 'Userpass' });
        await page.getByLabel('Username').fill('walker');
        await page.getByLabel('Password').fill('walk-password');
      });
      assert.equal(await page.locator('.who-name').textContent(), 'userpass-walker');

      // A KV v2 secret with two keys, a second version, and the first restored.
      await page.getByRole('link', { name: 'kv/', exact: true }).click();
      await page.getByRole('link', { name: 'Create secret' }).click();
      await page.getByLabel('Path').fill('web/login');
      await page.getByLabel('Key').fill('user');
      await page.getByLabel('Value').fill('web');
      await page.getByRole('button', { name: 'Add entry' }).click();
      await page.getByRole('group', { name: 'Entry 2' }).getByLabel('Key').fill('password');
      await page
        .getByRole('group', { name: 'Entry 2' })
        .getByLabel('Value')
        .fill(VALUES[0] as string);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Version 1 (current)').waitFor();
      await page.getByRole('link', { name: 'Create new version' }).click();
      await page
        .getByRole('group', { name: 'Entry 2' })
        .getByLabel('Value')
        .fill(VALUES[1] as string);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Version 2 (current)').waitFor();
      assert.equal(
        await page
          .getByRole('region', { name: /^Versions/ })
          .getByRole('row')
          .count(),
        3,
      );
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await page.getByText('Version 3 (current)').waitFor();
      await page
        .getByRole('row', { name: /password/ })
        .getByRole('button', { name: 'Reveal' })
        .click();
      await page.getByText(VALUES[0] as string).waitFor();
      const stored = await request(url, 'GET', 'kv/data/web/login', { token: root });
      assert.deepEqual(stored.body.data.data, { user: 'web', password: VALUES[0] });
      assert.equal(stored.body.data.metadata.version, 3);
      const walkerToken = JSON.parse((await page.evaluate('sessionStorage.getItem("ward.session")')) as string).token;

      // The walker's login lease, revoked by root from the Leases screen.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(page, () => page.getByLabel('Token').fill(root));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access' }).click();
      await page.getByRole('link', { name: 'Leases' }).click();
      await page.getByLabel('List leases under').fill('auth/userpass/login/walker/');
      await page.getByRole('button', { name: 'List' }).click();
      await page
        .getByRole('list', { name: /^Leases under/ })
        .getByRole('button')
        .first()
        .click();
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByRole('button', { name: 'Revoke now' }).click();
      await page.getByText(/^Revoked auth\/userpass\/login\/walker\//).waitFor();
      assert.equal((await request(url, 'GET', 'auth/token/lookup-self', { token: walkerToken })).status, 403);

      const exposed = await tab.exposedPlaces();
      for (const v of VALUES) assert.ok(!exposed.includes(v), `${v} is in localStorage, a cookie or the URL`);
      found.push(...tab.problems());
    });
    for (const v of VALUES) assert.ok(!ward.output().includes(v), `${v} is in the server's log`);
    assertNoProblems(found);
  });
});
