import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { commandNames, findCommand } from '../src/cli/command-table.js';
import { notInWardNames } from '../src/cli/commands/not-in-ward.js';
import { type CliHarness, startCliHarness, WARD_BIN } from '../src/cli/testing.js';

const run = promisify(execFile);

/** Text meant for people, with the environment variable names (which keep the established spelling) taken out. */
// Established wire names (VAULT_* variables, X-Vault-* headers) are names a user types, not prose about Vault.
const prose = (text: string) => text.replace(/\bVAULT_[A-Z_]+/g, '').replace(/\bX-Vault-[A-Za-z-]+/g, '');

// Issue 21, point 4: help, mistakes and odd situations a new user meets.
describe('ward help and errors', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());

  it('every command -help shows its usage and an example', async () => {
    // Commands Ward does not have answer one line saying why, -help included (cli-habits.test.ts).
    const notInWard = new Set(notInWardNames());
    for (const name of commandNames()) {
      const found = findCommand(name.split(' '));
      assert.ok(found, name);
      const help = (await found.load()).help();
      if (notInWard.has(name)) {
        assert.match(help, new RegExp(`^"ward ${name}" is not in Ward: `), name);
        continue;
      }
      assert.match(help, new RegExp(`^Usage: ward ${name}\\b`), name);
      assert.match(help, new RegExp(`\\nExample:\\n  \\$ ward ${name}\\b`), name);
      assert.doesNotMatch(prose(help), /Vault/, `${name} -help mentions Vault`);
    }
    const viaBinary = await cli.wardProcess(['kv', 'rollback', '-help']);
    assert.equal(viaBinary.code, 0);
    assert.match(viaBinary.stdout, /Example:\n {2}\$ ward kv rollback -version=2 secret\/app/);
    assert.doesNotMatch(prose((await cli.ward(['-help'])).stdout), /Vault/);
  });

  it('flags after the arguments work', async () => {
    assert.equal((await cli.ward(['kv', 'put', 'secret/late', 'pw=x'])).code, 0);
    const late = await cli.ward(['kv', 'get', 'secret/late', '-field=pw']);
    assert.equal(late.code, 0, late.stderr);
    assert.equal(late.stdout, 'x\n');
    assert.equal((await cli.ward(['kv', 'get', 'secret/late', '-help'])).code, 0);
  });

  it('-h given as a flag value is the value, not a request for help', async () => {
    assert.equal((await cli.ward(['kv', 'put', 'secret/dash', 'pw=x'])).code, 0);
    const asValue = await cli.ward(['kv', 'get', '-field', '-h', 'secret/dash']);
    assert.doesNotMatch(asValue.stdout, /Usage:/);
    assert.equal(asValue.code, 1, asValue.stderr);
    assert.match(asValue.stderr, /-h/);
    assert.match((await cli.ward(['kv', 'get', '-field=pw', '-h', 'secret/dash'])).stdout, /^Usage: ward kv get/);
    assert.match((await cli.ward(['kv', 'get', '--', '-h'])).stderr, /^Error: /);
  });

  it('an unknown command suggests the nearest one', async () => {
    const typo = await cli.ward(['stauts']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown command "stauts"\n\nDid you mean "ward status"\?/);
    assert.match((await cli.ward(['kv', 'gte', 'secret/x'])).stderr, /Did you mean "ward kv get"\?/);
  });

  it('says Ward, not Vault, when the server answers with the established text', async () => {
    await cli.server.request('PUT', 'sys/seal');
    const sealed = await cli.ward(['kv', 'get', 'secret/late']);
    assert.equal(sealed.code, 2);
    assert.match(sealed.stderr, /Ward is sealed/);
    assert.doesNotMatch(sealed.stderr, /Vault/);
    await cli.server.request('PUT', 'sys/unseal', { body: { key: cli.server.unsealKey } });
  });

  it('exits quietly when the reader of its output goes away (| head)', async () => {
    await cli.server.request('PUT', 'secret/data/big', { body: { data: { blob: 'x'.repeat(512 * 1024) } } });
    const { stdout, stderr } = await run(
      'sh',
      ['-c', `"${process.execPath}" "${WARD_BIN}" kv get -format=json secret/big 2>"$ERR" | head -c 10; cat "$ERR"`],
      { env: { ...cli.env, PATH: process.env.PATH ?? '', ERR: join(cli.env.HOME as string, 'stderr') } },
    );
    assert.equal(stdout, '{\n  "reque');
    assert.equal(stderr, '');
  });

  it('a checkout that was never built says to run npm run build', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-unbuilt-'));
    try {
      await mkdir(join(dir, 'bin'));
      for (const file of ['ward', 'launch.js']) await copyFile(join(dirname(WARD_BIN), file), join(dir, 'bin', file));
      const unbuilt = await run(process.execPath, [join(dir, 'bin', 'ward'), 'status']).catch((e) => e);
      assert.equal(unbuilt.code, 1);
      assert.equal(unbuilt.stderr, 'ward: this checkout is not built; run `npm run build` first\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
