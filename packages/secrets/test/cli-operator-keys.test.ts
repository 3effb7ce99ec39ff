import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness } from '../src/cli/testing.js';

// Issue 18: `ward operator rekey` and `ward operator generate-root`, run as the real binary.

describe('ward operator rekey and generate-root', () => {
  let cli: CliHarness;
  let keys: string[];
  before(async () => {
    cli = await startCliHarness({ uninitialized: true });
    const init = await cli.ward(['operator', 'init', '-key-shares=3', '-key-threshold=2', '-format=json']);
    keys = JSON.parse(init.stdout).keys_base64;
    for (const key of keys.slice(0, 2)) await cli.ward(['operator', 'unseal', key]);
  });
  after(() => cli.stop());

  it('generate-root: -generate-otp, -init, shares, -decode gives a working root token', async () => {
    const otp = (await cli.ward(['operator', 'generate-root', '-generate-otp'])).stdout.trim();
    assert.match(otp, /^[A-Za-z0-9]{28}$/);
    const init = await cli.ward(['operator', 'generate-root', '-init', '-otp', otp]);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Progress\s+0\/2/);
    const first = await cli.ward(['operator', 'generate-root', keys[0] ?? '']);
    assert.match(first.stdout, /Progress\s+1\/2/);
    const last = await cli.ward(['operator', 'generate-root', '-format=json', '-'], `${keys[1]}\n`);
    assert.equal(last.code, 0, last.stderr);
    const encoded = JSON.parse(last.stdout).encoded_token;
    // hvac's own tests decode exactly like this, with single-dash flags and separate values.
    const decoded = await cli.ward(['operator', 'generate-root', '-tls-skip-verify', '-decode', encoded, '-otp', otp]);
    const token = decoded.stdout.trim();
    assert.match(token, /^hvs\.[A-Za-z0-9]{24}$/);
    const lookup = await runWardInProcess(['token', 'lookup', '-format=json'], { ...cli.env, VAULT_TOKEN: token });
    assert.equal(lookup.code, 0, lookup.stderr);
    assert.deepEqual(JSON.parse(lookup.stdout).data.policies, ['root']);
  });

  it('generate-root -cancel and -status', async () => {
    await cli.ward(['operator', 'generate-root', '-init']);
    assert.match((await cli.ward(['operator', 'generate-root', '-status'])).stdout, /Started\s+true/);
    assert.equal((await cli.ward(['operator', 'generate-root', '-cancel'])).code, 0);
    assert.match((await cli.ward(['operator', 'generate-root', '-status'])).stdout, /Started\s+false/);
  });

  it('rekey: -init, shares, new shares unseal the server', async () => {
    const init = await cli.ward(['operator', 'rekey', '-init', '-key-shares=4', '-key-threshold=3']);
    assert.equal(init.code, 0, init.stderr);
    await cli.ward(['operator', 'rekey', keys[0] ?? '']);
    const last = await cli.ward(['operator', 'rekey', keys[1] ?? '']);
    assert.equal(last.code, 0, last.stderr);
    const newKeys = [...last.stdout.matchAll(/^Key \d: (\S+)$/gm)].map((m) => m[1] ?? '');
    assert.equal(newKeys.length, 4);
    assert.match(last.stdout, /Server rekeyed with 4 key shares/);
    const status = await cli.ward(['status', '-format=json']);
    assert.equal(JSON.parse(status.stdout).t, 3);
  });
});
