import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { TestPlatform, type TestUser } from './testing.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/', import.meta.url));
const GOVERNANCE = 'fs-EP5Niczf2xKUFDXt';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A phone held upright (390 px) and a desktop. */
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate('axe.run(document).then((r) => r.violations)')) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** How far the page is wider than the window; 0 means no horizontal scrolling. */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
}

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

  // Issue 21, point 11: usable on a phone and a desktop, accessible, and the confirm step shows
  // every number that changes.
  for (const size of WIDTHS) {
    it(`fits a ${size.width} px window, passes axe-core, and lists every changed limit before a downgrade`, async () => {
      const org = `wide${size.width}`;
      await p.createOrganization(owner.token, org);
      // axe-core is injected as a script, which the pages' CSP (rightly) forbids: bypass it for the check only.
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        bypassCSP: true,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${p.baseUrl}/app/session/new?return_to=/app/${org}/settings/billing`);
        assert.deepEqual(await seriousViolations(page), [], 'sign-in page');
        await page.getByLabel('API token').fill(owner.token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: `Billing settings for ${org}` }).waitFor();

        // Move to Team first, then look at the step back down to Free.
        await page.getByRole('button', { name: 'Choose Team', exact: true }).click();
        await page.getByRole('button', { name: 'Confirm change to Team' }).click();
        await page.getByRole('status').waitFor();
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: `${SCREENSHOTS}platform-billing-${size.name}.png`, fullPage: true });
        assert.equal(await horizontalOverflow(page), 0, 'billing page scrolls sideways');
        assert.deepEqual(await seriousViolations(page), [], 'billing page');
        // Readable dates, with the exact time kept for machines.
        const since = page.locator('time');
        assert.equal(await since.textContent(), '1 March 2024, 12:00 UTC');
        assert.equal(await since.getAttribute('datetime'), '2024-03-01T12:00:00.123Z');
        assert.equal(await page.getByText('US$20.00 per month').first().isVisible(), true);

        await page.getByRole('button', { name: 'Choose Free' }).click();
        const changes = page.getByRole('table', { name: 'What changes' });
        await changes.waitFor();
        const rows = await changes
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.trim() ?? '')));
        for (const expected of [
          ['Price', 'US$20.00 per month', 'Free'],
          ['Users', 'Unlimited', '5'],
          ['Concurrent runs', '2', '1'],
          ['Teams', 'Included', 'Not included'],
        ]) {
          assert.ok(
            rows.some((r) => JSON.stringify(r) === JSON.stringify(expected)),
            `${expected.join(' | ')} in ${JSON.stringify(rows)}`,
          );
        }
        // Neither Team nor Free includes run tasks or policies: their limits do not change either.
        assert.ok(!rows.some((r) => r[0] === 'Run tasks' || r[0] === 'Policies'), JSON.stringify(rows));
        await page.screenshot({ path: `${SCREENSHOTS}platform-billing-confirm-${size.name}.png`, fullPage: true });
        assert.equal(await horizontalOverflow(page), 0, 'confirm page scrolls sideways');
        assert.deepEqual(await seriousViolations(page), [], 'confirm page');

        // Navigation and sign-out from the header.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
        await page.getByRole('heading', { name: 'Your organizations' }).waitFor();
        assert.deepEqual(await seriousViolations(page), [], 'organizations page');
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('heading', { name: 'Sign in' }).waitFor();
        await page.goto(`${p.baseUrl}/app/${org}/settings/billing`);
        await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      } finally {
        await context.close();
      }
    });
  }

  // Issue 35 point 4: the billing page's rough edges, at 390 px and 1280 px.
  for (const size of WIDTHS) {
    it(`at ${size.width} px: limits agree with the comparison, Choose sits under the plan names, the table reads, a 404 keeps the header`, async () => {
      const org = `edges${size.width}`;
      await p.createOrganization(owner.token, org);
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const page = await context.newPage();
        await page.goto(`${p.baseUrl}/app/session/new?return_to=/app/${org}/settings/billing`);
        await page.getByLabel('API token').fill(owner.token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: `Billing settings for ${org}` }).waitFor();

        // The Free plan's run-task limit agrees with its comparison column.
        const limits = page.getByRole('table', { name: 'Limits of your plan' });
        assert.equal(
          (await limits.getByRole('row', { name: /^Run tasks/ }).textContent())?.trim(),
          'Run tasksNot included',
        );
        const comparison = page.getByRole('table', { name: /Plans compared/ });
        const rows = await comparison
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.trim() ?? '')));
        const freeColumn = 1; // Free is the first plan column.
        assert.equal(rows.find((r) => r[0] === 'Run tasks')?.[freeColumn], 'Not included');

        // The Choose buttons are the first row under the plan names.
        assert.equal(rows[0]?.[0], 'Change');
        const choose = page.getByRole('button', { name: 'Choose Team', exact: true });
        const header = await comparison.locator('thead').boundingBox();
        const button = await choose.boundingBox();
        assert.ok(header && button && button.y - (header.y + header.height) < 80, 'Choose right under the plan names');

        // The caption is whole, the plans region scrolls inside the page, and on a phone it says so.
        const caption = await page.locator('#plans-caption').boundingBox();
        assert.ok(caption && caption.x >= 0 && caption.x + caption.width <= size.width, 'caption within the window');
        assert.equal(await horizontalOverflow(page), 0);
        assert.equal(
          await page.getByText('Scroll the table sideways to see every plan.').isVisible(),
          size.width < 768,
        );
        const region = page.getByRole('region', { name: /Plans compared/ });
        const box = (await region.boundingBox())!;
        const columns = await comparison.locator('thead th').evaluateAll((ths) =>
          ths.map((th) => {
            const r = th.getBoundingClientRect();
            return { left: r.left, right: r.right };
          }),
        );
        const whole = columns.slice(1).filter((c) => c.left >= box.x - 0.5 && c.right <= box.x + box.width + 0.5);
        assert.ok(whole.length >= 2, `${whole.length} whole plan columns at ${size.width} px`);

        // Scrolled sideways, the label column (its header too) stays put and covers what passes beneath it.
        await comparison.getByRole('rowheader', { name: 'Price' }).scrollIntoViewIfNeeded();
        const cells = [
          comparison.getByRole('rowheader', { name: 'Price' }),
          comparison.getByRole('columnheader', { name: 'Feature' }),
        ];
        const boxes = await Promise.all(cells.map((c) => c.boundingBox()));
        await region.evaluate((el) => {
          el.scrollLeft = 60;
        });
        const seen = [];
        for (const b of boxes) {
          seen.push(
            await page.evaluate(
              ([x, y]) =>
                document
                  .elementFromPoint(x as number, y as number)
                  ?.closest('th, td')
                  ?.textContent?.trim(),
              [b!.x + b!.width - 2, b!.y + b!.height / 2],
            ),
          );
        }
        assert.deepEqual(seen, ['Price', 'Feature']);
        await page.screenshot({ path: `${SCREENSHOTS}platform-billing-edges-${size.name}.png`, fullPage: true });

        // A page that does not exist keeps the signed-in header.
        const res = await page.goto(`${p.baseUrl}/app/${org}/settings/nowhere`);
        assert.equal(res?.status(), 404);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        assert.equal(await page.getByText('Signed in as owner').isVisible(), true);
        assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 1);
      } finally {
        await context.close();
      }
    });
  }
  // Issue 35, billing page row: an organization is created from the UI, here on a phone.
  it('at 390 px: creates an organization with the form, errors in place, then it is listed and its billing page opens', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${p.baseUrl}/app`);
      await page.getByLabel('API token').fill(owner.token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Your organizations' }).waitFor();
      await page.getByRole('link', { name: 'New organization' }).click();
      await page.getByRole('heading', { name: 'New organization' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'new-organization page');

      // A taken name (acme, case aside): the API's text under the field, the email kept.
      await page.getByLabel('Organization name').fill('ACME');
      await page.getByLabel('Email').fill('billing@phone.example');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('alert').waitFor();
      const name = page.getByLabel('Organization name');
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('#name-error').textContent(), 'name has already been taken');
      assert.equal(await page.getByLabel('Email').inputValue(), 'billing@phone.example');
      assert.equal(await horizontalOverflow(page), 0, 'form with errors scrolls sideways');
      assert.deepEqual(await seriousViolations(page), [], 'new-organization page with errors');
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}platform-new-organization-error-phone.png`, fullPage: true });

      await name.fill('phone-made');
      await page.getByRole('button', { name: 'Create organization' }).click();
      const status = page.getByRole('status');
      await status.waitFor();
      assert.equal((await status.textContent())?.trim(), 'Organization phone-made created; you are its owner.');
      await page.getByRole('link', { name: 'phone-made: billing settings' }).click();
      await page.getByRole('heading', { name: 'Billing settings for phone-made' }).waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Current plan: Free' }).count(), 1);
      const api = await p.api('GET', '/organizations/phone-made', { token: owner.token });
      assert.equal(api.status, 200);
      assert.equal(api.body.data.attributes.email, 'billing@phone.example');
    } finally {
      await context.close();
    }
  });
});
