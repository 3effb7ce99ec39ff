import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { assertNoProblems, launchChromium, UiTab } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 34: the web UI against `ward server -dev` (the UI on by default), in Debian's Chromium.

const ROOT = 'ui-root-token';

describe('web UI on a dev server', () => {
  let dev: DevWard;
  let browser: Browser;
  const found: string[] = [];

  before(async () => {
    [dev, browser] = await Promise.all([startDevWard(ROOT), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

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
    assert.match(csp, /connect-src 'self'(;|$)/);
    const html = await index.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    const [, script = ''] = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html) ?? [];
    assert.match(script, /\/ui\/assets\/index-[\w-]+\.js/);
    const asset = await fetch(`${dev.url}${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /text\/javascript/);
    assert.equal((await fetch(`${dev.url}/ui/assets/index-gone.js`)).status, 404);
    assert.equal((await fetch(`${dev.url}/ui/`, { method: 'POST' })).status, 405);
    // The API is untouched.
    assert.equal((await request(dev.url, 'GET', 'sys/health')).status, 200);
  });

  it('signs in with a token, keeps it in sessionStorage only, and drops it at sign-out', async () => {
    const tab = await UiTab.open(browser, dev.url);
    const { page } = tab;
    await page.goto('/ui/');
    await page.getByRole('heading', { name: 'Sign in to Ward' }).waitFor();
    found.push(...(await tab.capture('sign-in')));
    await page.getByLabel('Method').selectOption({ label: 'Token' });
    await page.getByLabel('Token').fill(ROOT);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'secret/', exact: true }).waitFor();
    for (const name of ['Secrets', 'Access', 'Policies', 'Tools']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).waitFor();
    }
    found.push(...(await tab.capture('secrets-list')));
    const stored = (await page.evaluate('sessionStorage.getItem("ward.session")')) as string;
    assert.equal(JSON.parse(stored).token, ROOT);
    assert.doesNotMatch(await tab.exposedPlaces(), new RegExp(ROOT));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Ward' }).waitFor();
    assert.equal(await page.evaluate('sessionStorage.length'), 0);
    assertNoProblems(tab.problems());
    await tab.close();
  });

  it('shows every screen without a serious or critical axe-core finding, and no sideways scrolling', () => {
    assertNoProblems(found);
  });
});
