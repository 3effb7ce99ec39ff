import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { launchChromium, UiTab } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

/** The root token of the dev servers the UI tests start. */
export const ROOT = 'ui-root-token';

/** `ward server -dev` (the UI on by default) and Debian's Chromium, for one test file. */
export interface UiDev {
  dev: DevWard;
  browser: Browser;
  /** An API request that must succeed (root token unless told); its body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  api(method: string, path: string, body?: unknown, token?: string): Promise<any>;
  /** A tab signed in with `token` through the sign-in screen. */
  signedIn(token?: string, path?: string): Promise<UiTab>;
  stop(): Promise<void>;
}

export async function startUiDev(): Promise<UiDev> {
  const [started, launched] = await Promise.allSettled([startDevWard(ROOT), launchChromium()]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    // Whichever did start is stopped, so a failed start leaves no process that keeps the test file alive.
    if (launched.status === 'fulfilled') await launched.value.close();
    if (started.status === 'fulfilled') started.value.ward.child.kill('SIGKILL');
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const dev = started.value;
  const browser = launched.value;
  return {
    dev,
    browser,
    async api(method, path, body, token = ROOT) {
      const res = await request(dev.url, method, path, { token, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async signedIn(token = ROOT, path = '/ui/') {
      const tab = await UiTab.open(browser, dev.url);
      await tab.page.goto(path);
      await tab.page.getByLabel('Method').selectOption({ label: 'Token' });
      await tab.page.getByLabel('Token').fill(token);
      await tab.page.getByRole('button', { name: 'Sign in' }).click();
      await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
      return tab;
    },
    async stop() {
      await browser.close();
      dev.ward.child.kill('SIGTERM');
      await dev.ward.exited;
    },
  };
}

/** A link of the main navigation. */
export const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

/**
 * Waits for the screen's heading, a string matched whole: `app/db` must not be found in the
 * `Metadata of app/db` still on screen, or the test reads the API before the save it waits for.
 */
export const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' }).waitFor();
