import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { TestPlatform, type TestUser } from './testing.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/', import.meta.url));
const GOVERNANCE = 'fs-EP5Niczf2xKUFDXt';

// Debian's chromium (packages/platform/system-packages.txt); playwright never downloads a browser.
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

describe('billing page in a browser', () => {
  let p: TestPlatform;
  let owner: TestUser;
  let browser: Browser;

  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    await p.createOrganization(owner.token, 'acme');
    browser = await chromium.launch(LAUNCH);
  });
  after(async () => {
    await browser?.close();
    await p.stop();
  });

  it('signs in, changes the plan, and the API shows the new subscription', async () => {
    const before = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data;
    const page = await browser.newPage();
    await page.goto(`${p.baseUrl}/app/acme/settings/billing`);

    await page.getByLabel('API token').fill(owner.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Billing settings for acme' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Current plan: Free' }).count(), 1);
    const comparison = page.getByRole('table', { name: /Plans compared/ });
    assert.equal(await comparison.getByRole('columnheader', { name: 'Team & Governance' }).count(), 1);

    await page.getByRole('button', { name: 'Choose Team & Governance' }).click();
    await page.getByRole('heading', { name: 'Change plan for acme' }).waitFor();
    await page.getByRole('button', { name: 'Confirm change to Team & Governance' }).click();

    const status = page.getByRole('status');
    await status.waitFor();
    assert.equal((await status.textContent())?.trim(), 'Your plan is now Team & Governance.');
    assert.equal(await page.getByRole('heading', { name: 'Current plan: Team & Governance' }).count(), 1);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}platform-billing.png`, fullPage: true });

    const now = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.equal(now.status, 200);
    assert.notEqual(now.body.data.id, before.id);
    assert.equal(now.body.data.relationships['feature-set'].data.id, GOVERNANCE);
    assert.equal(now.body.included[0].attributes.name, 'Team & Governance');
    const old = await p.api('GET', `/subscriptions/${before.id}`, { token: owner.token });
    assert.equal(old.body.data.attributes['is-active'], false);
    assert.notEqual(old.body.data.attributes['end-at'], null);
    const entitlements = await p.api('GET', '/organizations/acme/entitlement-set', { token: owner.token });
    assert.equal(entitlements.body.data.attributes['policy-enforcement'], true);
  });
});
