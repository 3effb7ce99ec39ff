import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { request } from '../src/server/testing.js';
import { assertNoProblems, launchChromium, UiTab } from './ui-browser.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 34: the Tools section (wrap, lookup, unwrap, rewrap, random, hash), the web console and
// the TOTP and transit engines' screens, in Debian's Chromium against `ward server -dev`.

const ROOT = 'ui-tools-root';

describe('web UI tools, console, TOTP and transit', () => {
  let dev: DevWard;
  let browser: Browser;
  let tab: UiTab;
  const found: string[] = [];

  before(async () => {
    [dev, browser] = await Promise.all([startDevWard(ROOT), launchChromium()]);
    for (const type of ['totp', 'transit']) {
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
  });

  const output = (label: string) => tab.page.getByLabel(label, { exact: true }).textContent();

  it('wraps JSON, looks the token up without spending it, rewraps it, and unwraps the data once', async () => {
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
    found.push(...(await tab.capture('tools')));
    await page.getByRole('link', { name: 'Wrap', exact: true }).click();
    await page.getByLabel('Data to wrap').fill('{"password": "hunter2"}');
    await page.getByLabel('Wrap TTL').fill('10m');
    await page.getByRole('button', { name: 'Wrap data' }).click();
    const token = ((await output('Wrapping token')) ?? '').trim();
    assert.match(token, /^hvs\./);
    found.push(...(await tab.capture('tools-wrap')));

    await page.goto('/ui/tools/lookup');
    await page.getByLabel('Wrapping token').fill(token);
    await page.getByRole('button', { name: 'Look up token' }).click();
    await page.getByText('sys/wrapping/wrap').waitFor();
    assert.match((await page.getByLabel('Wrapping token', { exact: true }).last().textContent()) ?? '', /600 s/);

    await page.goto('/ui/tools/rewrap');
    await page.getByLabel('Wrapping token').fill(token);
    await page.getByRole('button', { name: 'Rewrap token' }).click();
    const fresh = ((await output('New wrapping token')) ?? '').trim();
    assert.match(fresh, /^hvs\./);
    assert.notEqual(fresh, token);

    await page.goto('/ui/tools/unwrap');
    await page.getByLabel('Wrapping token').fill(token);
    await page.getByRole('button', { name: 'Unwrap data' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(
      (await page.getByRole('alert').textContent()) ?? '',
      /wrapping token is not valid/,
      'the rewrapped token is spent',
    );
    await page.getByLabel('Wrapping token').fill(fresh);
    await page.getByRole('button', { name: 'Unwrap data' }).click();
    assert.deepEqual(JSON.parse((await output('Unwrapped data')) ?? ''), { password: 'hunter2' });
    found.push(...(await tab.capture('tools-unwrap')));
    assert.doesNotMatch(await tab.exposedPlaces(), /hunter2/);
  });

  it('shows the server error in place for JSON that is not an object', async () => {
    const { page } = tab;
    await page.goto('/ui/tools/wrap');
    await page.getByLabel('Data to wrap').fill('[1, 2]');
    await page.getByRole('button', { name: 'Wrap data' }).click();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /Data to wrap must be a JSON object/);
  });

  it('generates random bytes and hashes text as the server computes them', async () => {
    const { page } = tab;
    await page.goto('/ui/tools/random');
    await page.getByLabel('Number of bytes').fill('16');
    await page.getByLabel('Output format').selectOption('hex');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.match(((await output('Random bytes')) ?? '').trim(), /^[0-9a-f]{32}$/);

    await page.goto('/ui/tools/hash');
    await page.getByLabel('Input', { exact: true }).fill('hello');
    await page.getByLabel('Algorithm').selectOption('sha2-256');
    await page.getByRole('button', { name: 'Hash' }).click();
    assert.equal(
      ((await output('Sum')) ?? '').trim(),
      '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    );
    found.push(...(await tab.capture('tools-hash')));
  });

  it('runs write, read with -field, list and delete lines in the console, with errors in its log', async () => {
    const { page } = tab;
    await page.goto('/ui/tools/console');
    const log = page.getByRole('log', { name: 'Console output' });
    await log.getByText('Commands, as the established UI').waitFor();
    const run = async (line: string) => {
      const before = await log.locator('.console-entry').count();
      await page.getByLabel('Command').fill(line);
      await page.getByRole('button', { name: 'Run' }).click();
      await log.locator('.console-entry').nth(before).waitFor();
      return (await log.locator('.console-entry').nth(before).textContent()) ?? '';
    };
    assert.match(await run('write cubbyhole/notes note="two words"'), /Success/);
    assert.match(await run('read cubbyhole/notes -field=note'), /two words/);
    assert.match(await run('list cubbyhole/'), /notes/);
    assert.match(await run('delete cubbyhole/notes'), /Success! Data deleted/);
    assert.match(await run('read cubbyhole/notes'), /No value found at cubbyhole\/notes/);
    assert.match(await run('frobnicate x'), /unknown command "frobnicate"/);
    assert.match(await run('read sys/nothing-here'), /unsupported path|not found|no handler/i);
    // The arrow key brings the last command back.
    await page.getByLabel('Command').press('ArrowUp');
    assert.equal(await page.getByLabel('Command').inputValue(), 'read sys/nothing-here');
    found.push(...(await tab.capture('tools-console')));
  });

  it('creates a TOTP key on the server, shows its QR code once, and shows the current code', async () => {
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Secrets' }).click();
    await page.getByRole('link', { name: 'totp/', exact: true }).click();
    await page.getByText('No keys yet.').waitFor();
    await page.getByLabel('Key name').fill('github');
    await page.getByLabel('Account name').fill('ada@example.com');
    await page.getByRole('button', { name: 'Create key' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the TOTP key github' });
    await qr.waitFor();
    assert.ok(((await qr.getAttribute('src')) ?? '').startsWith('data:image/png;base64,iVBOR'), 'a PNG');
    found.push(...(await tab.capture('totp-create')));
    await page.getByRole('link', { name: 'github', exact: true }).click();
    const shown = ((await page.getByLabel('Current code').textContent()) ?? '').trim();
    assert.match(shown, /^\d{6}$/);
    // The code the page shows is one the server accepts.
    const valid = await request(dev.url, 'POST', 'totp/code/github', { token: ROOT, body: { code: shown } });
    assert.equal(valid.body.data.valid, true);
    found.push(...(await tab.capture('totp-key')));
    await page.getByRole('button', { name: 'Delete key' }).click();
    await page.getByText('No keys yet.').waitFor();
  });

  it('creates transit keys; encrypts, decrypts, signs and verifies through the forms', async () => {
    const { page } = tab;
    await page.goto('/ui/secrets/transit/transit');
    await page.getByLabel('Key name').fill('orders');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'orders' }).waitFor();
    await page.getByLabel('Operation').selectOption({ label: 'Encrypt' });
    await page.getByLabel('Plaintext').fill('card 4111');
    await page.getByRole('button', { name: 'Encrypt', exact: true }).click();
    const ciphertext = ((await output('Ciphertext')) ?? '').trim();
    assert.match(ciphertext, /^vault:v1:/);
    found.push(...(await tab.capture('transit-key')));
    await page.getByLabel('Operation').selectOption({ label: 'Decrypt' });
    await page.getByLabel('Ciphertext', { exact: true }).first().fill(ciphertext);
    await page.getByRole('button', { name: 'Decrypt', exact: true }).click();
    assert.equal(((await output('Plaintext')) ?? '').trim(), 'card 4111');
    await page.getByLabel('Operation').selectOption({ label: 'Decrypt' });
    await page.getByLabel('Ciphertext', { exact: true }).first().fill('vault:v1:Zm9v');
    await page.getByRole('button', { name: 'Decrypt', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('Latest version').locator('..').getByText('2').waitFor();

    await page.goto('/ui/secrets/transit/transit');
    await page.getByLabel('Key name').fill('release');
    await page.getByLabel('Key type').selectOption('ed25519');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'release' }).waitFor();
    await page.getByLabel('Operation').selectOption({ label: 'Sign' });
    await page.getByLabel('Input').fill('v1.2.3');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    const signature = ((await output('Signature')) ?? '').trim();
    assert.match(signature, /^vault:v1:/);
    await page.getByLabel('Operation').selectOption({ label: 'Verify' });
    await page.getByLabel('Input').fill('v1.2.3');
    await page.getByLabel('Signature', { exact: true }).first().fill(signature);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    assert.equal(((await output('Verification')) ?? '').trim(), 'The signature is valid.');
    await page.getByLabel('Input').fill('v1.2.4');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByText('The signature is NOT valid.').waitFor();
    found.push(...(await tab.capture('transit-sign')));
  });

  it('shows every screen without a serious or critical axe-core finding, sideways scrolling or page error', () => {
    assertNoProblems(found);
    assertNoProblems(tab.problems());
  });
});
