import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from './postgres.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
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
  let pg: PostgresServer;
  let slapd: Slapd;
  const found: string[] = [];

  before(async () => {
    [dev, browser, dir, pg] = await Promise.all([
      startDevWard(ROOT),
      launchChromium(),
      mkdtemp(join(tmpdir(), 'ui-engines-')),
      PostgresServer.start(),
    ]);
    slapd = await startSlapd();
    for (const type of ['pki', 'database', 'ldap']) {
      const res = await request(dev.url, 'POST', `sys/mounts/${type}`, { token: ROOT, body: { type } });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    await pg.query("CREATE ROLE app_static WITH LOGIN PASSWORD 'before-ward'");
    const api = (path: string, body: unknown) => request(dev.url, 'POST', path, { token: ROOT, body });
    const config = await api('database/config/pg', {
      plugin_name: 'postgresql-database-plugin',
      connection_url: pg.templatedUrl,
      username: PG_ROOT,
      password: PG_ROOT_PASSWORD,
      allowed_roles: '*',
    });
    assert.ok(config.status < 300, JSON.stringify(config.body));
    const stat = await api('database/static-roles/app', {
      db_name: 'pg',
      username: 'app_static',
      rotation_period: '1h',
    });
    assert.ok(stat.status < 300, JSON.stringify(stat.body));
    const ldap = await api('ldap/config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    assert.ok(ldap.status < 300, JSON.stringify(ldap.body));
    const dynamic = await api('ldap/role/dev', {
      creation_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: dev\nuserPassword: {{.Password}}\n`,
      deletion_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: delete\n`,
      default_ttl: '1h',
    });
    assert.ok(dynamic.status < 300, JSON.stringify(dynamic.body));
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
    await pg?.stop();
    await slapd?.stop();
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

  /** Reveals the secret `field` of the credentials in `scope` and reads it. */
  const reveal = async (scope: ReturnType<UiTab['page']['locator']>, field: string) => {
    const cell = scope.locator(`dt:text-is("${field}") + dd`);
    await cell.getByRole('button', { name: 'Reveal' }).click();
    return ((await cell.locator('.code').textContent()) ?? '').trim();
  };

  it('creates a database role, gets a PostgreSQL user that logs in, and reads and rotates a static role', async () => {
    const { page } = tab;
    await page.goto('/ui/secrets');
    await page.getByRole('link', { name: 'database/', exact: true }).click();
    await page.getByRole('link', { name: 'pg', exact: true }).click();
    await page.getByText('postgresql-database-plugin').waitFor();
    assert.doesNotMatch(await tab.exposedPlaces(), new RegExp(PG_ROOT_PASSWORD));
    found.push(...(await tab.capture('database-connection')));

    await page.goto('/ui/secrets/database/database/roles');
    await page.getByLabel('Role name').fill('reader');
    await page.getByLabel('Connection name').fill('pg');
    await page
      .getByLabel('Creation statements')
      .fill(`CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}';`);
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('heading', { name: 'reader', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Get credentials' }).click();
    const creds = page.getByRole('region', { name: 'Credentials' });
    await creds.waitFor();
    const username = ((await creds.locator('dt:text-is("username") + dd').textContent()) ?? '').trim();
    assert.match(
      ((await creds.locator('dt:text-is("lease_id") + dd').textContent()) ?? '').trim(),
      /^database\/creds\/reader\//,
    );
    assert.ok(await creds.getByRole('img', { name: 'password: hidden value', exact: true }).isVisible());
    found.push(...(await tab.capture('database-creds')));
    const password = await reveal(creds, 'password');
    assert.ok(await pg.canLogin(username, password), 'the issued user logs in to PostgreSQL');

    await page.goto('/ui/secrets/database/database/static-roles');
    await page.getByRole('link', { name: 'app', exact: true }).click();
    const facts = page.locator('dl[aria-label="Credentials"]');
    await page.getByText('app_static').waitFor();
    const first = await reveal(facts, 'password');
    assert.ok(await pg.canLogin('app_static', first));
    assert.equal(await pg.canLogin('app_static', 'before-ward'), false);
    await page.getByRole('button', { name: 'Rotate password' }).click();
    await page.getByRole('button', { name: 'Rotate it' }).click();
    await page.getByRole('button', { name: 'Rotate password' }).waitFor();
    await page.waitForFunction((old) => !document.body.textContent?.includes(old), first);
    found.push(...(await tab.capture('database-static-role')));
    assert.equal(await pg.canLogin('app_static', first), false, 'the rotated password no longer logs in');
  });

  it('creates an LDAP static role whose password binds and rotates, and gets dynamic credentials', async () => {
    const { page } = tab;
    const dn = await slapd.addUser('alice', 'before-ward');
    await page.goto('/ui/secrets');
    await page.getByRole('link', { name: 'ldap/', exact: true }).click();
    await page.getByLabel('Role name').fill('alice');
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('DN', { exact: true }).fill(dn);
    await page.getByLabel('Rotation period').fill('1h');
    await page.getByRole('button', { name: 'Create static role' }).click();
    await page.getByRole('heading', { name: 'alice', exact: true }).waitFor();
    const facts = page.locator('dl[aria-label="Credentials"]');
    await facts.waitFor();
    assert.ok(await facts.getByRole('img', { name: 'password: hidden value', exact: true }).isVisible());
    found.push(...(await tab.capture('ldap-static-role')));
    const first = await reveal(facts, 'password');
    assert.ok(await slapd.canBind(dn, first), 'the password Ward set binds to slapd');
    assert.equal(await slapd.canBind(dn, 'before-ward'), false);
    await page.getByRole('button', { name: 'Rotate password' }).click();
    await page.getByRole('button', { name: 'Rotate it' }).click();
    await page.waitForFunction((old) => !document.body.textContent?.includes(old), first);
    assert.equal(await slapd.canBind(dn, first), false, 'the rotated password no longer binds');
    const second = ((await facts.locator('dt:text-is("password") + dd .code').textContent()) ?? '').trim();
    assert.ok(await slapd.canBind(dn, second), 'the new password shown binds');

    await page.getByRole('link', { name: 'ldap/', exact: true }).click();
    found.push(...(await tab.capture('ldap-roles')));
    await page.getByRole('link', { name: 'dev', exact: true }).click();
    await page.getByRole('button', { name: 'Get credentials' }).click();
    const creds = page.getByRole('region', { name: 'Credentials' });
    await creds.waitFor();
    const username = ((await creds.locator('dt:text-is("username") + dd').textContent()) ?? '').trim();
    const password = await reveal(creds, 'password');
    assert.ok(await slapd.canBind(`cn=${username},ou=users,${SUFFIX}`, password), 'the dynamic entry binds');
    found.push(...(await tab.capture('ldap-dynamic-creds')));
  });

  it('finds no accessibility problem on any screen', () => {
    assertNoProblems(found);
  });
});
