import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { assertNoProblems, launchChromium, UiTab } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 34: the PKI, LDAP and database engines' screens, in Debian's Chromium against
// `ward server -dev`, checked against the real thing (openssl, PostgreSQL).

const ROOT = 'ui-engines-root';
const run = promisify(execFile);

describe('web UI PKI, LDAP and database engines', () => {
  let dev: DevWard;
  let browser: Browser;
  let tab: UiTab;
  let dir: string;
  const found: string[] = [];

  before(async () => {
    [dev, browser, dir] = await Promise.all([
      startDevWard(ROOT),
      launchChromium(),
      mkdtemp(join(tmpdir(), 'ui-engines-')),
    ]);
    for (const type of ['pki']) {
      const res = await request(dev.url, 'POST', `sys/mounts/${type}`, { token: ROOT, body: { type } });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    tab = await UiTab.open(browser, dev.url);
    await tab.page.goto('/ui/');
    await tab.page.getByLabel('Method').selectOption({ label: 'Token' });
    await tab.page.getByLabel('Token').fill(ROOT);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('link', { name: 'secret/', exact: true }).waitFor();
  });
  after(async () => {
    await tab?.context.close();
    await browser?.close();
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const output = async (label: string) =>
    ((await tab.page.getByLabel(label, { exact: true }).textContent()) ?? '').trim();

  it('generates a root, creates a role, issues a certificate that chains to the root, and revokes it', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'pki/', exact: true }).click();
    await page.getByText('This engine has no issuer yet.').waitFor();
    await page.getByLabel('Common name').fill('Ward UI Root');
    await page.getByLabel('TTL').fill('8760h');
    await page.getByLabel('Key type').selectOption('ec');
    await page.getByRole('button', { name: 'Generate root' }).click();
    const issuer = page.getByRole('region', { name: /^Issuer / });
    await issuer.waitFor();
    const ca = ((await issuer.getByLabel('CA certificate', { exact: true }).textContent()) ?? '').trim();
    assert.match(ca, /^-----BEGIN CERTIFICATE-----/);
    found.push(...(await tab.capture('pki-overview')));

    await page.getByRole('link', { name: 'Roles', exact: true }).click();
    await page.getByLabel('Role name').fill('web');
    await page.getByLabel('Allowed domains').fill('example.test');
    await page.getByLabel('Maximum TTL').fill('24h');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('heading', { name: 'web', exact: true }).waitFor();
    await page.getByLabel('Common name').fill('app.example.test');
    await page.getByLabel('Alternative names').fill('api.example.test');
    await page.getByLabel('TTL').fill('1h');
    await page.getByRole('button', { name: 'Issue certificate' }).click();
    const leaf = await output('Certificate');
    assert.match(leaf, /^-----BEGIN CERTIFICATE-----/);
    assert.ok(await page.getByRole('img', { name: 'Private key: hidden value' }).isVisible());
    assert.doesNotMatch(await tab.exposedPlaces(), /PRIVATE KEY/);
    found.push(...(await tab.capture('pki-issue')));

    await writeFile(join(dir, 'ca.pem'), `${ca}\n`);
    await writeFile(join(dir, 'leaf.pem'), `${leaf}\n`);
    const verified = await run('openssl', ['verify', '-CAfile', join(dir, 'ca.pem'), join(dir, 'leaf.pem')]);
    assert.match(verified.stdout, /leaf\.pem: OK/);

    const serialLink = page.getByRole('region', { name: 'Issued certificate' }).getByRole('link');
    const serial = ((await serialLink.textContent()) ?? '').trim();
    await page.goto('/ui/secrets/pki/pki/certs');
    await page.getByRole('link', { name: serial }).click();
    await page.getByText('Valid (not revoked)').waitFor();
    await page.getByRole('button', { name: 'Revoke certificate' }).click();
    await page.getByRole('button', { name: 'Revoke it' }).click();
    await page.getByText(/^Revoked at /).waitFor();
    found.push(...(await tab.capture('pki-cert-revoked')));
    const res = await request(dev.url, 'GET', `pki/cert/${serial}`, { token: ROOT });
    assert.ok((res.body as { data: { revocation_time: number } }).data.revocation_time > 0);
  });

  it('finds no accessibility problem on any screen', () => {
    assertNoProblems(found);
  });
});
