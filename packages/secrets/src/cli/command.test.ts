import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { formatDurationShort } from '@ward/base';
import { createClientDouble, type FetchDouble } from '@ward/secrets-client/testing';
import type { CommandIO } from './command.js';
import { findCommand } from './command-table.js';
import { flagValue, UsageError } from './flags.js';
import { createOutput, formatTable } from './output.js';
import { tokenFileIn } from './token-file.js';

/** Runs `ward <argv>` in-process against the client double; returns stdout and the exit status. */
async function run(argv: string[], script: (d: FetchDouble) => void, namespace?: string) {
  const { client, double } = createClientDouble({ token: 't', ...(namespace ? { namespace } : {}) });
  script(double);
  let stdout = '';
  const home = await mkdtemp(join(tmpdir(), 'ward-cli-unit-'));
  const io: CommandIO = {
    runtime: { env: {}, argv, stdout: new PassThrough(), stdin: new PassThrough(), stderr: new PassThrough() },
    makeContext: async (globals) => ({
      client,
      out: createOutput(
        (s) => {
          stdout += s;
        },
        flagValue(globals, 'format') ?? 'table',
        flagValue(globals, 'field'),
      ),
      tokenFile: tokenFileIn(home),
      env: {},
      argv,
      readStdin: async () => '',
      readFile: async () => '',
      readSecret: async () => '',
      writeRaw: async (chunk) => {
        stdout += chunk.toString();
      },
      runProgram: async () => 0,
      close: async () => {},
    }),
  };
  const found = findCommand(argv);
  assert.ok(found, `no command for ${argv.join(' ')}`);
  const code = await (await found.load()).execute(argv.slice(found.words), io);
  return { code, stdout, calls: double.calls };
}

const kvV2Mount = (d: FetchDouble) =>
  d.on('GET', 'sys/internal/ui/mounts/secret/app', {
    status: 200,
    body: { data: { type: 'kv', options: { version: '2' }, path: 'secret/' } },
  });

describe('CLI commands over the client double', () => {
  it('kv get rewrites the path for a v2 mount and prints data under its metadata', async () => {
    const { code, stdout, calls } = await run(['kv', 'get', 'secret/app'], (d) => {
      kvV2Mount(d);
      d.on('GET', 'secret/data/app', {
        status: 200,
        body: { lease_duration: 0, data: { data: { pw: 'x' }, metadata: { version: 4 } } },
      });
    });
    assert.equal(code, 0);
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path}`),
      ['GET sys/internal/ui/mounts/secret/app', 'GET secret/data/app'],
    );
    assert.match(stdout, /==== Secret Path ====\nsecret\/data\/app\n/);
    assert.match(stdout, /==== Data ====\nKey {4}Value\n--- {4}-----\npw {5}x\n/);
  });

  it('namespace commands call sys/namespaces under the current namespace', async () => {
    const create = await run(
      ['namespace', 'create', 'team'],
      (d) => d.on('PUT', 'sys/namespaces/team', { status: 200, body: { data: { id: 'abc12', path: 'ns1/team/' } } }),
      'ns1/',
    );
    assert.equal(create.calls[0]?.headers['x-vault-namespace'], 'ns1/');
    assert.match(create.stdout, /path\s+ns1\/team\//);
    const list = await run(['namespace', 'list'], (d) =>
      d.on('LIST', 'sys/namespaces', { status: 200, body: { data: { keys: ['a/', 'b/'], key_info: {} } } }),
    );
    assert.equal(list.stdout, 'Keys\n----\na/\nb/\n');
    const del = await run(['namespace', 'delete', 'team'], (d) =>
      d.on('DELETE', 'sys/namespaces/team', { status: 204 }),
    );
    assert.equal(del.stdout, 'Success! Namespace deleted: team\n');
  });

  it('status returns 2 for a sealed server', async () => {
    const { code, stdout } = await run(['status', '-field=Sealed'], (d) =>
      d.on('GET', 'sys/seal-status', { status: 200, body: { type: 'shamir', sealed: true, t: 1, n: 1, progress: 0 } }),
    );
    assert.equal(code, 2);
    assert.equal(stdout, 'true\n');
  });

  it('rejects unknown flags and wrong argument counts as usage errors', async () => {
    await assert.rejects(
      run(['kv', 'get', '-nope', 'x'], () => {}),
      (e: unknown) => e instanceof UsageError,
    );
    await assert.rejects(
      run(['policy', 'read'], () => {}),
      (e: unknown) => e instanceof UsageError,
    );
  });
});

describe('CLI output helpers', () => {
  it('aligns table columns and prints durations as the established CLI does', () => {
    assert.equal(
      formatTable(
        ['Key', 'Value'],
        [
          ['a', 1],
          ['long_key', [true, null]],
        ],
      ),
      'Key         Value\n---         -----\na           1\nlong_key    [true n/a]\n',
    );
    assert.equal(formatDurationShort(2_764_800), '768h');
    assert.equal(formatDurationShort(5400), '1h30m');
    assert.equal(formatDurationShort(0), '0s');
  });
});
