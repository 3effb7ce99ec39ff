import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, startCliHarness, tempHome } from '../src/cli/testing.js';

// Issue 35: commands users copy from the established CLI's habits, through bin/ward.
describe('ward as users of the established CLI type it', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());
  const ok = async (args: string[], stdin?: string) => {
    const run = await cli.ward(args, stdin);
    assert.equal(run.code, 0, `ward ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  it('write -f writes without data, as -force does', async () => {
    await ok(['secrets', 'enable', 'transit']);
    assert.match(await ok(['write', '-f', 'transit/keys/app']), /^name\s+app$/m);
  });

  it('read of sys/health, sys/seal-status and sys/leader prints their top-level fields', async () => {
    const health = await ok(['read', 'sys/health']);
    assert.match(health, /^initialized\s+true$/m);
    assert.match(health, /^version\s+\S+$/m);
    assert.match(await ok(['read', 'sys/seal-status']), /^sealed\s+false$/m);
    assert.match(await ok(['read', 'sys/leader']), /^ha_enabled\s+false$/m);
  });

  it('-field reads a top-level field as well as a data field', async () => {
    assert.match(await ok(['read', '-field=initialized', 'sys/health']), /^true\n$/);
    await ok(['secrets', 'enable', '-path=kv1', 'kv']);
    await ok(['write', 'kv1/app', 'password=x', 'ttl=1h']);
    assert.equal(await ok(['read', '-field=password', 'kv1/app']), 'x\n');
    assert.equal(await ok(['read', '-field=lease_duration', 'kv1/app']), '3600\n');
    const missing = await cli.ward(['read', '-field=nothing', 'kv1/app']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Field "nothing" not present in secret/);
  });

  it('path-help answers for the routes the HTTP layer serves itself', async () => {
    assert.match(await ok(['path-help', 'sys/health']), /health of the server/);
  });

  it('kv put takes a JSON object from @file and from -', async () => {
    const file = join(await tempHome(), 'data.json');
    await writeFile(file, JSON.stringify({ user: 'ops', password: 'p' }));
    await ok(['kv', 'put', 'secret/from-file', `@${file}`]);
    assert.deepEqual(JSON.parse(await ok(['kv', 'get', '-format=json', 'secret/from-file'])).data.data, {
      user: 'ops',
      password: 'p',
    });
    await ok(['kv', 'put', 'secret/from-stdin', '-'], '{"k":"v"}');
    assert.equal(await ok(['kv', 'get', '-field=k', 'secret/from-stdin']), 'v\n');
  });

  it('a usage mistake prints one line and where the help is, not the whole usage', async () => {
    const run = await cli.ward(['write', '-bogus', 'x']);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stderr.trimEnd().split('\n'), [
      'Error: flag provided but not defined: -bogus',
      'Run "ward write -help" for the options and an example.',
    ]);
  });
});
