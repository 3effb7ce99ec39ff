import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FlagKind, parseGoFlags, USAGE_EXIT_CODE, UsageError } from './go-flags.js';

const SPEC = new Map<string, FlagKind>([
  ['name', 'string'],
  ['json', 'bool'],
  ['port', 'int'],
  ['policy', 'list'],
  ['ttl', 'duration'],
  ['log-level', 'log-level'],
]);
const parse = (...argv: string[]) => parseGoFlags(argv, SPEC, 'go');
const usageError = (argv: string[]): string => {
  try {
    parse(...argv);
  } catch (err) {
    assert.ok(err instanceof UsageError);
    assert.equal(err.exitCode, USAGE_EXIT_CODE);
    return err.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
};

describe('parseGoFlags (the one flag parser of ward, ward-agent and ward-platform)', () => {
  it('takes -flag=value, -flag value and --flag alike', () => {
    for (const argv of [
      ['-name=a', '-port=80', '-ttl=1h30m'],
      ['-name', 'a', '-port', '80', '-ttl', '1h30m'],
      ['--name=a', '--port', '80', '--ttl=1h30m'],
    ]) {
      const { values, args, isHelp } = parse(...argv);
      assert.deepEqual(
        [...values],
        [
          ['name', 'a'],
          ['port', 80],
          ['ttl', 5_400_000_000_000n],
        ],
      );
      assert.deepEqual(args, []);
      assert.equal(isHelp, false);
    }
  });

  it('reads booleans bare or with Go’s spellings, and never takes the next word as their value', () => {
    assert.equal(parse('-json').values.get('json'), true);
    assert.equal(parse('-json=false').values.get('json'), false);
    assert.equal(parse('--json=T').values.get('json'), true);
    assert.deepEqual(parse('-json', 'false').args, ['false']);
    assert.equal(usageError(['-json=yes']), 'invalid value "yes" for flag -json: not a boolean (true or false)');
  });

  it('keeps the last value of a repeated flag, and every value of a list in order', () => {
    const { values } = parse('-name=a', '-name=b', '-policy=x,y', '-policy', 'z');
    assert.equal(values.get('name'), 'b');
    assert.deepEqual(values.get('policy'), ['x,y', 'z']);
  });

  it('ends the flags at --; after the first argument only declared flags are flags', () => {
    assert.deepEqual(parse('-name=a', '--', '-json', 'x').args, ['-json', 'x']);
    const late = parse('path', '-json', '-', 'k=-1', '-other=1');
    assert.deepEqual(late.args, ['path', '-', 'k=-1', '-other=1']);
    assert.equal(late.values.get('json'), true);
    assert.deepEqual(parse('-', '-json').args, ['-']);
  });

  it('stops at -h, -help or --help, as Go does', () => {
    for (const help of ['-h', '-help', '--help', '--h']) {
      const parsed = parse('-name=a', help, '-bogus');
      assert.equal(parsed.isHelp, true, help);
      assert.equal(parsed.values.get('name'), 'a');
    }
    assert.equal(parse('path', '-help').isHelp, true);
    assert.equal(parse('--', '-help').isHelp, false);
    assert.equal(usageError(['-bogus', '-help']), 'flag provided but not defined: -bogus');
  });

  it('refuses mistakes with Go’s wording', () => {
    assert.equal(usageError(['-bogus=1']), 'flag provided but not defined: -bogus');
    assert.equal(usageError(['--bogus']), 'flag provided but not defined: -bogus');
    assert.equal(usageError(['-name']), 'flag needs an argument: -name');
    assert.equal(usageError(['---name=a']), 'bad flag syntax: ---name=a');
    assert.equal(usageError(['-=a']), 'bad flag syntax: -=a');
    assert.equal(usageError(['-port=-1']), 'invalid value "-1" for flag -port: not a whole number');
    assert.equal(usageError(['-port', '8o']), 'invalid value "8o" for flag -port: not a whole number');
  });

  it('takes a log level in any case, and names the levels when refusing one', () => {
    assert.equal(parse('-log-level=DEBUG').values.get('log-level'), 'debug');
    assert.equal(
      usageError(['-log-level', 'loud']),
      'invalid value "loud" for flag -log-level: not one of trace, debug, info, warn, error',
    );
  });

  it('refuses a bad duration with the duration parser’s reason', () => {
    assert.equal(
      usageError(['-ttl=1fortnight']),
      'invalid value "1fortnight" for flag -ttl: unknown unit "fortnight" in duration "1fortnight"',
    );
    assert.equal(
      usageError(['-ttl', '-1s']),
      'invalid value "-1s" for flag -ttl: negative duration "-1s": durations cannot be negative',
    );
    assert.equal(usageError(['-ttl=90']), 'invalid value "90" for flag -ttl: missing unit in duration "90"');
    assert.equal(parseGoFlags(['-ttl=90'], SPEC, 'api').values.get('ttl'), 90_000_000_000n);
  });
});
