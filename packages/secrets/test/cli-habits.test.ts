import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type CliHarness, expectSuccess, runWardInProcess, startCliHarness, tempHome } from '../src/cli/testing.js';

// Issue 35: commands users copy from the established CLI's habits (in process; cli-smoke.test.ts runs bin/ward).
describe('ward as users of the established CLI type it', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());
  const ok = async (args: string[], stdin?: string) => expectSuccess(await cli.ward(args, stdin), args);

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

  it('-output-curl-string prints the request instead of sending it, without the token', async () => {
    const curl = await ok(['kv', 'put', '-output-curl-string', 'secret/never', 'a=1']);
    assert.match(
      curl,
      /^curl -X PUT .*-H "X-Vault-Token: \$\(ward print token\)" -d '\{"data":\{"a":"1"\}\}' http:\/\/\S+\/v1\/secret\/data\/never\n$/,
    );
    assert.doesNotMatch(curl, new RegExp(cli.server.rootToken));
    const absent = await cli.ward(['kv', 'get', 'secret/never']);
    assert.equal(absent.code, 2, 'nothing was written');
  });

  it('-output-policy prints the policy the request needs', async () => {
    assert.equal(
      await ok(['kv', 'put', '-output-policy', 'secret/app', 'a=1']),
      'path "secret/data/app" {\n  capabilities = ["create", "update"]\n}\n',
    );
    assert.equal(
      await ok(['list', '-output-policy', 'secret/metadata']),
      'path "secret/metadata/" {\n  capabilities = ["list"]\n}\n',
    );
  });

  it('-autocomplete-install adds completion to ~/.bashrc and ~/.zshrc once, and -autocomplete-uninstall removes it', async () => {
    const home = await tempHome();
    await writeFile(join(home, '.bashrc'), '# mine\n');
    const env = { HOME: home };
    const install = await runWardInProcess(['-autocomplete-install'], env);
    assert.equal(install.code, 0, install.stderr);
    assert.match(await readFile(join(home, '.zshrc'), 'utf8'), /completion zsh\)"/);
    const { stdout } = await promisify(execFile)('bash', ['-ic', 'complete -p ward'], {
      env: { ...process.env, HOME: home },
    });
    assert.match(stdout, /complete .* ward$/m);
    assert.equal((await runWardInProcess(['-autocomplete-install'], env)).code, 1, 'a second install is refused');
    assert.equal((await runWardInProcess(['-autocomplete-uninstall'], env)).code, 0);
    assert.equal(await readFile(join(home, '.bashrc'), 'utf8'), '# mine\n');
  });

  it('operator key-status, rotate, members, raft list-peers and step-down answer as established', async () => {
    assert.match(await ok(['operator', 'key-status']), /^Key Term\s+1$/m);
    assert.match(await ok(['operator', 'rotate']), /Success! Rotated key\n\nKey Term\s+2/);
    assert.match(await ok(['operator', 'key-status']), /^Encryption Count\s+\d+$/m);
    assert.match(await ok(['operator', 'members']), /^Host Name\s+API Address\s+Cluster Address\s+Active Node/);
    assert.match(
      await ok(['operator', 'raft', 'list-peers']),
      /^Node\s+Address\s+State\s+Voter\n.*\n.*leader\s+true$/m,
    );
    assert.match(await ok(['operator', 'step-down']), /Success! Stepped down/);
  });

  it('kv metadata patch changes only the settings given, and patch merges fields at any path', async () => {
    await ok(['kv', 'put', 'secret/patched', 'a=1']);
    await ok(['kv', 'metadata', 'put', '-max-versions=7', 'secret/patched']);
    await ok(['kv', 'metadata', 'patch', '-custom-metadata=owner=ops', 'secret/patched']);
    const metadata = JSON.parse(await ok(['kv', 'metadata', 'get', '-format=json', 'secret/patched'])).data;
    assert.equal(metadata.max_versions, 7);
    assert.deepEqual(metadata.custom_metadata, { owner: 'ops' });
    await ok(['patch', 'secret/data/patched', '-'], '{"data":{"b":"2"}}');
    assert.deepEqual(JSON.parse(await ok(['kv', 'get', '-format=json', 'secret/patched'])).data.data, {
      a: '1',
      b: '2',
    });
  });

  it('every top-level command of the established CLI exists or says in one line why Ward has none', async () => {
    const established = [
      'agent',
      'audit',
      'auth',
      'debug',
      'delete',
      'events',
      'hcp',
      'kv',
      'lease',
      'list',
      'login',
      'monitor',
      'namespace',
      'operator',
      'patch',
      'path-help',
      'pki',
      'plugin',
      'policy',
      'print',
      'proxy',
      'read',
      'secrets',
      'server',
      'ssh',
      'status',
      'token',
      'transform',
      'transit',
      'unwrap',
      'version',
      'version-history',
      'write',
    ];
    for (const name of established) {
      const run = await cli.ward([name, '-help']);
      assert.doesNotMatch(run.stderr, /unknown command/, name);
    }
    const plugin = await cli.ward(['plugin', 'list']);
    assert.equal(plugin.code, 1);
    assert.deepEqual(plugin.stderr.trimEnd().split('\n').length, 1);
    assert.match(plugin.stderr, /^Error: "ward plugin" is not in Ward: Ward runs no external plugins/);
  });
});
