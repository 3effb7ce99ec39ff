import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../go-flags.js';
import { CommandTable } from './command-table.js';
import { commandDefiner } from './define-command.js';
import { flag } from './flag-spec.js';

interface Io {
  out: string[];
  closed: number;
}

const defineCommand = commandDefiner<Io, { io: Io }, string>({
  globalFlags: { address: flag.string('Where the server is.') },
  durationStyle: 'go',
  durationValue: (ns) => `${ns}ns`,
  usageHint: (name) => `Run "x ${name} -help".`,
  stdout: (io) => ({ write: (text: string) => io.out.push(text) }),
  context: async (_parsed, io) => ({
    io,
    close: async () => {
      io.closed++;
    },
  }),
});

const get = defineCommand({
  name: 'kv get',
  summary: 'Read.',
  flags: {
    field: flag.string('Only this field.'),
    mount: flag.string('The mount.', 'secret'),
    json: flag.bool(),
    policy: flag.list(),
    ttl: flag.duration(),
    port: flag.int(),
  },
  args: { min: 1, max: 1 },
  help: 'Usage: x kv get PATH\n',
  async run({ flags, args, given }, { io }) {
    io.out.push(JSON.stringify({ ...flags, args, given: [...given.keys()] }));
    return flags.json ? 3 : undefined;
  },
});

const newIo = (): Io => ({ out: [], closed: 0 });

describe('commandDefiner', () => {
  it('parses every flag form into typed values with defaults, and closes the context', async () => {
    const io = newIo();
    const code = await get.execute(
      ['-field=pw', '--policy', 'a', '-policy=b', '-ttl', '90s', '-port=8', 'app', '-address=http://h'],
      io,
    );
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(io.out[0] as string), {
      field: 'pw',
      mount: 'secret',
      json: false,
      policy: ['a', 'b'],
      ttl: '90000000000ns',
      port: 8,
      args: ['app'],
      given: ['field', 'policy', 'ttl', 'port', 'address'],
    });
    assert.equal(io.closed, 1);
  });

  it("returns run's status, 0 for undefined", async () => {
    assert.equal(await get.execute(['-json', 'app'], newIo()), 3);
  });

  it('prints the help for -help without running', async () => {
    const io = newIo();
    assert.equal(await get.execute(['-help'], io), 0);
    assert.deepEqual(io.out, ['Usage: x kv get PATH\n']);
    assert.equal(io.closed, 0);
    assert.equal(get.help(), 'Usage: x kv get PATH\n');
  });

  it('throws usage errors with the hint for bad flags and argument counts, before the context', async () => {
    for (const [argv, message] of [
      [['-nope', 'app'], 'flag provided but not defined: -nope\nRun "x kv get -help".'],
      [[], 'expected 1 argument(s), got 0\nRun "x kv get -help".'],
      [['a', 'b'], 'expected 1 argument(s), got 2\nRun "x kv get -help".'],
    ] as const) {
      const io = newIo();
      await assert.rejects(get.execute([...argv], io), (err) => err instanceof UsageError && err.message === message);
      assert.equal(io.closed, 0);
    }
  });

  it('lists its own and the global flags for the caller', () => {
    assert.deepEqual([...get.flags.keys()].sort(), ['address', 'field', 'json', 'mount', 'policy', 'port', 'ttl']);
  });
});

describe('CommandTable', () => {
  const table = new CommandTable<string>([
    ['kv get', () => 'kv get'],
    ['kv metadata get', async () => 'kv metadata get'],
    ['status', () => 'status'],
  ]);

  it('finds the longest name the leading words make', async () => {
    const found = table.find(['kv', 'metadata', 'get', 'x']);
    assert.equal(found?.words, 3);
    assert.equal(await found?.load(), 'kv metadata get');
    assert.equal(await table.find(['kv', 'get', 'metadata'])?.load(), 'kv get');
    assert.equal(table.find(['kv']), undefined);
  });

  it('finds no name of Object.prototype', () => {
    assert.equal(table.find(['constructor']), undefined);
    assert.equal(table.find(['__proto__']), undefined);
  });

  it('lists groups, exactly or by the longest group the words make', () => {
    assert.deepEqual(table.under('kv'), ['kv get', 'kv metadata get']);
    assert.deepEqual(table.under('kv metadata'), ['kv metadata get']);
    assert.deepEqual(table.underLongestGroup(['kv', 'metadata', 'nope']), ['kv metadata get']);
    assert.deepEqual(table.underLongestGroup(['kv', 'nope']), ['kv get', 'kv metadata get']);
    assert.deepEqual(table.underLongestGroup(['nope']), []);
    assert.deepEqual(table.names(), ['kv get', 'kv metadata get', 'status']);
  });
});
