import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { assertNoProblems, UiTab } from './ui-browser.js';
import { heading, nav, ROOT, startUiDev, type UiDev } from './ui-dev.testing.js';
import type { DevWard } from './ward-process.js';

// Issue 34: the web UI against `ward server -dev` (the UI is on by default there), in Debian's
// Chromium under the server's own Content-Security-Policy. One server and one browser for the file;
// each screen is captured at 390 px and 1280 px in both themes and checked with axe-core. Signing
// in with AppRole, LDAP and OIDC is in ui-sign-in-methods.test.ts; leases and token expiry in
// ui-tokens-leases.test.ts.

/** Secret values typed into the UI: none may reach localStorage, a cookie, a URL or the server's log. */
const SECRETS = ['first-s3cret-value', 'second-s3cret-value', 'v1-s3cret-value', 'patched-s3cret'];

describe('web UI on a dev server', () => {
  let ui: UiDev;
  let dev: DevWard;
  let browser: Browser;
  /** What capture() and the tabs found wrong, reported by the last test. */
  const found: string[] = [];
  const api: UiDev['api'] = (...args) => ui.api(...args);
  const signedIn: UiDev['signedIn'] = (...args) => ui.signedIn(...args);

  before(async () => {
    ui = await startUiDev();
    ({ dev, browser } = ui);
  });
  after(() => ui?.stop());

  it('serves /ui/ with a strict CSP, long-cached hashed assets and a revalidated index; / redirects there', async () => {
    const root = await fetch(`${dev.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 307);
    assert.equal(root.headers.get('location'), '/ui/');
    const index = await fetch(`${dev.url}/ui/secrets/secret/kv/`);
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await index.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(html, /<style|style=/, 'no inline style');
    const [, script = ''] = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html) ?? [];
    assert.match(script, /\/ui\/assets\/index-[\w-]+\.js/);
    const asset = await fetch(`${dev.url}${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /text\/javascript/);
    // The app calls nothing but its own server's /v1.
    const bundle = await asset.text();
    assert.doesNotMatch(bundle, /https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\//i);
    assert.equal((await fetch(`${dev.url}/ui/assets/index-gone.js`)).status, 404);
    assert.equal((await fetch(`${dev.url}/ui/`, { method: 'POST' })).status, 405);
    assert.equal((await request(dev.url, 'GET', 'sys/health')).status, 200);
  });

  it('signs in with a token, shows the status header, keeps the token in sessionStorage only, and signs out', async () => {
    await (await UiTab.open(browser, dev.url)).use('sign-in', async (tab) => {
      const { page } = tab;
      await page.goto('/');
      await heading(page, 'Sign in to Ward');
      found.push(...(await tab.capture('sign-in')));
      await page.getByLabel('Token').fill('not-a-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('permission denied').waitFor();
      await page.getByLabel('Method').selectOption({ label: 'Token' });
      await page.getByLabel('Token').fill(ROOT);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'secret/', exact: true }).waitFor();
      for (const name of ['Secrets', 'Access', 'Policies', 'Tools']) await nav(page, name).waitFor();
      const status = page.getByRole('definition');
      assert.match((await page.getByLabel('Server status').textContent()) ?? '', /Version\s*\d+\.\d+\.\d+/);
      assert.ok((await status.allTextContents()).includes('Unsealed'));
      assert.ok((await status.allTextContents()).includes('root'), 'namespace root');
      found.push(...(await tab.capture('secrets-list')));
      const stored = (await page.evaluate('sessionStorage.getItem("ward.session")')) as string;
      assert.equal(JSON.parse(stored).token, ROOT);
      assert.doesNotMatch(await tab.exposedPlaces(), new RegExp(ROOT));

      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading(page, 'Sign in to Ward');
      assert.equal(await page.evaluate('sessionStorage.length'), 0);
      found.push(...tab.problems());
    });
  });

  it('KV v2: creates a secret with two keys, masks its values, keeps versions, restores, patches, deletes and destroys', async () => {
    await (await signedIn()).use('kv-v2', async (tab) => {
      const { page, context } = tab;
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('link', { name: 'secret/', exact: true }).click();
      await heading(page, 'secret/');
      await page.getByRole('link', { name: 'Create secret' }).click();
      await heading(page, 'Create secret');
      await page.getByLabel('Path').fill('app/db');
      await page.getByLabel('Key').fill('username');
      await page.getByLabel('Value').fill('app-user');
      await page.getByRole('button', { name: 'Add entry' }).click();
      const second = page.getByRole('group', { name: 'Entry 2' });
      await second.getByLabel('Key').fill('password');
      await second.getByLabel('Value').fill(SECRETS[0] as string);
      found.push(...(await tab.capture('kv-create')));
      await page.getByRole('button', { name: 'Save' }).click();
      await heading(page, 'app/db');
      assert.deepEqual((await api('GET', 'secret/data/app/db')).data.data, {
        username: 'app-user',
        password: SECRETS[0],
      });

      // Masked: the value is not in the page until Reveal.
      const passwordRow = page.getByRole('row', { name: /password/ });
      assert.doesNotMatch((await page.content()) as string, new RegExp(SECRETS[0] as string));
      found.push(...(await tab.capture('kv-secret')));
      await passwordRow.getByRole('button', { name: 'Copy' }).click();
      await passwordRow.getByText('Copied').waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), SECRETS[0]);
      await passwordRow.getByRole('button', { name: 'Reveal' }).click();
      await passwordRow.getByText(SECRETS[0] as string).waitFor();

      // A second version, then back to the first by restoring it (a third version).
      await page.getByRole('link', { name: 'Create new version' }).click();
      await page
        .getByRole('group', { name: 'Entry 2' })
        .getByLabel('Value')
        .fill(SECRETS[1] as string);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Version 2 (current)').waitFor();
      await page.getByRole('link', { name: 'View version 1' }).click();
      await page.getByText('Version 1', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await page.getByText('Version 3 (current)').waitFor();
      assert.equal((await api('GET', 'secret/data/app/db')).data.data.password, SECRETS[0]);

      // Patch: only the changed key is sent; the other stays.
      await page.getByRole('link', { name: 'Patch' }).click();
      await page
        .getByRole('group', { name: 'Entry 1' })
        .getByLabel('Value')
        .fill(SECRETS[3] as string);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Version 4 (current)').waitFor();
      assert.deepEqual((await api('GET', 'secret/data/app/db')).data.data, {
        username: SECRETS[3],
        password: SECRETS[0],
      });

      // Delete, undelete and destroy versions from the history.
      await page.getByRole('button', { name: 'Delete version 4' }).click();
      await page.getByRole('button', { name: 'Undelete version 4' }).waitFor();
      assert.notEqual((await api('GET', 'secret/metadata/app/db')).data.versions['4'].deletion_time, '');
      await page.getByRole('button', { name: 'Undelete version 4' }).click();
      await page.getByRole('button', { name: 'Delete version 4' }).waitFor();
      await page.getByRole('button', { name: 'Destroy version 2' }).click();
      await page.getByRole('button', { name: 'Destroy version 2 now' }).click();
      await page.getByRole('row', { name: /^2 .*destroyed/ }).waitFor();
      assert.equal((await api('GET', 'secret/metadata/app/db')).data.versions['2'].destroyed, true);
      found.push(...(await tab.capture('kv-versions')));

      // Metadata.
      await page.getByRole('link', { name: 'Edit metadata' }).click();
      await heading(page, 'Metadata of app/db');
      await page.getByLabel('Maximum versions').fill('5');
      await page.getByLabel('Require check-and-set').check();
      await page.getByLabel('Delete versions after').fill('720h');
      await page.getByLabel('Key').fill('owner');
      await page.getByLabel('Value').fill('team-a');
      found.push(...(await tab.capture('kv-metadata')));
      await page.getByRole('button', { name: 'Save metadata' }).click();
      await heading(page, 'app/db');
      const meta = (await api('GET', 'secret/metadata/app/db')).data;
      assert.equal(meta.max_versions, 5);
      assert.equal(meta.cas_required, true);
      assert.equal(meta.delete_version_after, '720h0m0s');
      assert.deepEqual(meta.custom_metadata, { owner: 'team-a' });

      // JSON editing, validated in place.
      await page.getByRole('link', { name: 'Create new version' }).click();
      await page.getByLabel('Edit as JSON').check();
      await page.getByLabel('JSON', { exact: true }).fill('{"a": ');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('alert')
        .getByText(/not valid JSON/)
        .waitFor();
      await page.getByLabel('JSON', { exact: true }).fill('["a"]');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('alert').getByText('the JSON must be an object of keys and values').waitFor();
      await page.getByLabel('JSON', { exact: true }).fill(JSON.stringify({ only: 'json-value' }));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Version 5 (current)').waitFor();
      assert.deepEqual((await api('GET', 'secret/data/app/db')).data.data, { only: 'json-value' });

      // The folder, then the whole secret deleted.
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'app/' }).click();
      await heading(page, 'secret/app/');
      await page.getByRole('link', { name: 'db', exact: true }).waitFor();
      found.push(...(await tab.capture('kv-browse')));
      await page.getByRole('link', { name: 'Engine settings' }).click();
      await heading(page, 'Settings of secret/');
      await page.getByLabel('Versions kept per secret').fill('7');
      await page.getByRole('button', { name: 'Save KV settings' }).click();
      await page.getByText('KV settings saved.').waitFor();
      assert.equal((await api('GET', 'secret/config')).data.max_versions, 7);
      await page.goBack();
      await heading(page, 'secret/app/');
      await page.getByRole('link', { name: 'db', exact: true }).click();
      await page.getByRole('button', { name: 'Delete secret and all versions' }).click();
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await heading(page, 'secret/app/');
      assert.equal((await request(dev.url, 'GET', 'secret/metadata/app/db', { token: ROOT })).status, 404);

      const exposed = await tab.exposedPlaces();
      for (const s of SECRETS) assert.ok(!exposed.includes(s), `${s} is in localStorage, a cookie or the URL`);
      found.push(...tab.problems());
    });
  });

  it('Secrets: enables a KV v1 engine, edits a secret in it, tunes the engine and disables it', async () => {
    await (await signedIn()).use('kv-v1', async (tab) => {
      const { page } = tab;
      await page.getByRole('link', { name: 'Enable new engine' }).click();
      await heading(page, 'Enable a secrets engine');
      await page.getByLabel('Type').selectOption({ label: 'KV version 1' });
      await page.getByLabel('Path').fill('legacy');
      await page.getByLabel('Description').fill('old secrets');
      found.push(...(await tab.capture('engine-enable')));
      await page.getByRole('button', { name: 'Enable engine' }).click();
      await heading(page, 'legacy/');
      await page.getByRole('link', { name: 'Create secret' }).click();
      await page.getByLabel('Path').fill('svc');
      await page.getByLabel('Key').fill('token');
      await page.getByLabel('Value').fill(SECRETS[2] as string);
      await page.getByRole('button', { name: 'Save' }).click();
      await heading(page, 'svc');
      assert.deepEqual((await api('GET', 'legacy/svc')).data, { token: SECRETS[2] });
      assert.equal(await page.getByRole('heading', { name: 'Versions' }).count(), 0, 'KV v1 has no versions');
      await page.getByRole('link', { name: 'Edit secret' }).click();
      await page.getByRole('button', { name: 'Add entry' }).click();
      await page.getByRole('group', { name: 'Entry 2' }).getByLabel('Key').fill('region');
      await page.getByRole('group', { name: 'Entry 2' }).getByLabel('Value').fill('eu');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('row', { name: /region/ }).waitFor();
      assert.deepEqual((await api('GET', 'legacy/svc')).data, { token: SECRETS[2], region: 'eu' });

      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'legacy/' }).click();
      await page.getByRole('link', { name: 'Engine settings' }).click();
      await heading(page, 'Settings of legacy/');
      await page.getByLabel('Default lease TTL').fill('1h');
      await page.getByLabel('Maximum lease TTL').fill('2h');
      await page.getByLabel('Description').fill('older secrets');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();
      const tune = (await api('GET', 'sys/mounts/legacy/tune')).data;
      assert.equal(tune.default_lease_ttl, 3600);
      assert.equal(tune.max_lease_ttl, 7200);
      assert.equal(tune.description, 'older secrets');
      // An API error is shown in place with the server's text.
      await page.getByLabel('Default lease TTL').fill('3h');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page
        .getByRole('alert')
        .getByText(/lease ttl|max/i)
        .waitFor();
      found.push(...(await tab.capture('engine-settings')));
      await page.getByRole('button', { name: 'Disable engine' }).click();
      await page.getByRole('button', { name: 'Disable and delete its data' }).click();
      await heading(page, 'Secrets engines');
      assert.equal((await api('GET', 'sys/mounts')).data['legacy/'], undefined);
      found.push(...tab.problems());
    });
  });

  it('Policies: a typo gets the server’s error at its line; the fixed policy is saved', async () => {
    await (await signedIn()).use('policies', async (tab) => {
      const { page } = tab;
      await nav(page, 'Policies').click();
      await heading(page, 'ACL policies');
      await page.getByRole('link', { name: 'default', exact: true }).waitFor();
      found.push(...(await tab.capture('policies')));
      await page.getByRole('link', { name: 'Create policy' }).click();
      await page.getByLabel('Name').fill('app-reader');
      const editor = page.getByRole('textbox', { name: 'Policy' });
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('path "secret/data/app/*" {\n  capabilites = ["read", "list"]\n}\n');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page
        .getByRole('alert')
        .getByText(/Line 2/)
        .waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid key "capabilites" on line 2/);
      await page.locator('.cm-error-line').waitFor();
      found.push(...(await tab.capture('policy-error')));

      // The fixed text typed over the highlighted lines: the editor replaces the selection itself, since
      // Chromium's own replacement (joining the lines) styles the line inline, which the CSP refuses
      // with a console error.
      const fixed = 'path "secret/data/app/*" {\n  capabilities = ["read", "list"]\n}\n';
      await page.getByText('capabilites', { exact: true }).click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(fixed.slice(0, 1));
      await page.keyboard.insertText(fixed.slice(1));
      assertNoProblems(tab.problems());
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Policy saved.').waitFor();
      assert.equal((await api('GET', 'sys/policies/acl/app-reader')).data.policy, fixed);
      assert.equal(await page.locator('.cm-error-line').count(), 0);
      found.push(...tab.problems());
    });
  });

  it('a token with a narrow policy sees only what it may, and the API refuses the rest', async () => {
    await api('PUT', 'sys/policies/acl/narrow', {
      policy:
        'path "secret/data/team/*" { capabilities = ["read"] }\npath "secret/metadata/team/*" { capabilities = ["list", "read"] }\n',
    });
    await api('PUT', 'secret/data/team/app', { data: { key: 'team-value' } });
    const narrow = (await api('POST', 'auth/token/create', { policies: ['narrow'] })).auth.client_token;
    await (await signedIn(narrow)).use('narrow', async (tab) => {
      const { page } = tab;
      await page.getByRole('link', { name: 'secret/', exact: true }).waitFor();
      // The default policy (which every token has unless told otherwise) adds cubbyhole/ and lease lookup (Access).
      await nav(page, 'Tools').waitFor();
      assert.equal(await nav(page, 'Policies').count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Enable new engine' }).count(), 0);
      await page.goto('/ui/secrets/secret/kv/team/');
      await page.getByRole('link', { name: 'app', exact: true }).click();
      await heading(page, 'team/app');
      for (const refused of ['Create new version', 'Patch']) {
        assert.equal(await page.getByRole('link', { name: refused }).count(), 0, refused);
      }
      assert.equal(await page.getByRole('button', { name: /Delete/ }).count(), 0);
      // Reached by its URL, a refused screen says so, and the API refuses.
      await page.goto('/ui/policies');
      await page.getByRole('alert').getByText('permission denied').waitFor();
      assert.equal((await request(dev.url, 'GET', 'sys/policies/acl?list=true', { token: narrow })).status, 403);
      assert.equal(
        (await request(dev.url, 'PUT', 'secret/data/team/app', { token: narrow, body: { data: { x: 'y' } } })).status,
        403,
      );
      found.push(...(await tab.capture('narrow-policy')));
      found.push(...tab.problems());
    });
  });

  it('shows every screen without a serious or critical axe-core finding, console error or sideways scrolling', () => {
    assertNoProblems(found);
    const log = dev.ward.output();
    for (const s of SECRETS) assert.ok(!log.includes(s), `${s} is in the server's log`);
  });
});
