import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, startCliHarness } from '../src/cli/testing.js';

// Issue 21 point 12: one flag style, one duration parser and exit 2 for usage errors in
// ward, ward-agent and ward-platform (the other two binaries have the same test in their package).
describe('ward flags as in ward-agent and ward-platform', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
    assert.equal((await cli.ward(['kv', 'put', 'secret/style', 'pw=x'])).code, 0);
  });
  after(() => cli.stop());

  it('takes -flag=value, -flag value and --flag alike', async () => {
    for (const field of [['-field=pw'], ['-field', 'pw'], ['--field', 'pw'], ['--field=pw']]) {
      const r = await cli.ward(['kv', 'get', ...field, 'secret/style']);
      assert.equal(r.code, 0, `${field.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, 'x\n');
    }
  });

  it('refuses an unknown flag with exit 2, naming it, with one line saying where the usage is (issue 35)', async () => {
    // `server` and `proxy` run in a process of their own: their mistakes are checked through bin/ward.
    for (const [args, ward] of [
      [['kv', 'get', '-bogus', 'secret/style'], cli.ward],
      [['server', '-bogus'], cli.wardProcess],
      [['proxy', '-bogus=1'], cli.wardProcess],
    ] as const) {
      const r = await ward([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(
        r.stderr,
        new RegExp(
          `^Error: flag provided but not defined: -bogus\\nRun "ward ${args[0]}[^"]* -help" for the options[^\\n]*\\n$`,
        ),
      );
    }
    for (const args of [[], ['-bogus'], ['kv'], ['frobnicate'], ['kv', 'get', '-field']]) {
      const r = await cli.ward(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /^Error: /, args.join(' '));
    }
    assert.match((await cli.ward([])).stderr, /^Error: no command given\n\nUsage: ward <command>/);
    assert.match(
      (await cli.ward(['kv', 'get', '-field'])).stderr,
      /flag needs an argument: -field\nRun "ward kv get -help"/,
    );
  });

  it('refuses a bad duration with the shared parser’s message, and reads a bare number as seconds', async () => {
    const bad = await cli.ward(['token', 'create', '-ttl=1fortnight']);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^Error: invalid value "1fortnight" for flag -ttl: unknown unit "fortnight" in duration "1fortnight"\nRun "ward token create -help"/,
    );
    const negative = await cli.ward(['token', 'create', '-ttl', '-1s']);
    assert.equal(negative.code, 2);
    assert.match(
      negative.stderr,
      /^Error: invalid value "-1s" for flag -ttl: negative duration "-1s": durations cannot be negative/,
    );
    const tooLong = await cli.ward(['lease', 'renew', '-increment=2562048h', 'some/lease']);
    assert.equal(tooLong.code, 2);
    assert.match(tooLong.stderr, /is longer than the maximum, 2562047h47m16\.854775807s/);
    for (const [ttl, seconds] of [
      ['90', 90],
      ['1h30m', 5400],
      ['1.5h', 5400],
      ['1d', 86_400],
    ] as const) {
      const created = await cli.ward(['token', 'create', '-format=json', '-ttl', ttl]);
      assert.equal(created.code, 0, created.stderr);
      assert.equal(JSON.parse(created.stdout).auth.lease_duration, seconds, ttl);
    }
  });

  it('refuses an unknown log level before starting, as the other binaries do', async () => {
    for (const command of [
      ['server', '-dev'],
      ['proxy', '-config=/nonexistent.hcl'],
    ]) {
      const r = await cli.wardProcess([...command, '-log-level=loud']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `^Error: invalid value "loud" for flag -log-level: not one of trace, debug, info, warn, error\\nRun "ward ${command[0]} -help"`,
        ),
      );
    }
  });

  it('answers -help, -h and --help with exit 0', async () => {
    for (const help of ['-help', '-h', '--help']) {
      const r = await cli.ward(['token', 'create', help]);
      assert.equal(r.code, 0, help);
      assert.match(r.stdout, /^Usage: ward token create/);
      assert.match(r.stdout, /-ttl=DURATION/);
    }
    assert.equal((await cli.ward(['-help'])).code, 0);
  });
});
