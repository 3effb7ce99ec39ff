import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, runWardInProcess, startCliHarness } from '../src/cli/testing.js';

describe('ward operator and status against a new server', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness({ uninitialized: true });
  });
  after(() => cli.stop());

  it('operator init, status (exit 2 while sealed), operator unseal with a key from stdin, operator seal', async () => {
    const before = await cli.ward(['operator', 'init', '-status']);
    assert.equal(before.code, 2);
    assert.match(before.stdout, /not initialized/);

    const init = await cli.ward(['operator', 'init', '-key-shares=3', '-key-threshold=2', '-format=json']);
    assert.equal(init.code, 0, init.stderr);
    const { keys_base64: keys, root_token: root } = JSON.parse(init.stdout);
    assert.equal(keys.length, 3);

    const sealed = await cli.ward(['status']);
    assert.equal(sealed.code, 2, 'status exits 2 while sealed');
    assert.match(sealed.stdout, /Sealed\s+true/);
    assert.match(sealed.stdout, /Unseal Progress\s+0\/2/);

    const first = await cli.ward(['operator', 'unseal', keys[0]]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Unseal Progress\s+1\/2/);
    const second = await cli.ward(['operator', 'unseal', '-'], `${keys[1]}\n`);
    assert.match(second.stdout, /Sealed\s+false/);

    const status = await cli.ward(['status', '-format=json']);
    assert.equal(status.code, 0);
    assert.equal(JSON.parse(status.stdout).sealed, false);
    assert.equal((await cli.ward(['status', '-field=Threshold'])).stdout, '2\n');

    const denied = await cli.ward(['operator', 'seal']);
    assert.equal(denied.code, 2, 'sealing needs a token');
    const seal = await runWardInProcess(['operator', 'seal'], { ...cli.env, VAULT_TOKEN: root });
    assert.equal(seal.code, 0, seal.stderr);
    assert.match(seal.stdout, /Success! Server is sealed/);
    assert.equal((await cli.ward(['status'])).code, 2);
    const reset = await cli.ward(['operator', 'unseal', '-reset']);
    assert.equal(reset.code, 0, reset.stderr);
  });
});

describe('ward secrets / auth / policy / namespace / path-help against a running server', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());

  it('secrets enable / list / tune / disable', async () => {
    const enable = await cli.ward(['secrets', 'enable', '-path=apps', '-version=2', '-description=App secrets', 'kv']);
    assert.equal(enable.code, 0, enable.stderr);
    assert.match(enable.stdout, /Success! Enabled the kv secrets engine at: apps\//);
    const list = await cli.ward(['secrets', 'list']);
    assert.match(list.stdout, /^apps\/\s+kv\s+kv_[0-9a-f]{8}\s+App secrets$/m);
    assert.match(list.stdout, /^secret\/\s+kv/m);
    const json = JSON.parse((await cli.ward(['secrets', 'list', '-format=json'])).stdout);
    assert.deepEqual(json['apps/'].options, { version: '2' });
    assert.match((await cli.ward(['secrets', 'list', '-detailed'])).stdout, /Default TTL/);

    const tune = await cli.ward(['secrets', 'tune', '-default-lease-ttl=1h', '-max-lease-ttl=2h', 'apps']);
    assert.equal(tune.code, 0, tune.stderr);
    assert.match(tune.stdout, /Success! Tuned the secrets engine at: apps\//);
    assert.equal((await cli.server.request('GET', 'sys/mounts/apps/tune')).body.data.max_lease_ttl, 7200);

    const taken = await cli.ward(['secrets', 'enable', '-path=apps', 'kv']);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /^Error: Error making API request\.\n\nURL: PUT http:\/\/.*\/v1\/sys\/mounts\/apps/);
    assert.match(taken.stderr, /Code: 400\. Errors:\n\n\* .*apps/);

    assert.match((await cli.ward(['secrets', 'disable', 'apps'])).stdout, /Success! Disabled the secrets engine/);
    assert.doesNotMatch((await cli.ward(['secrets', 'list'])).stdout, /apps\//);
  });

  it('auth list / enable / disable, and a userpass login through the CLI', async () => {
    const list = await cli.ward(['auth', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^token\/\s+token/m);
    const unknown = await cli.ward(['auth', 'enable', 'no-such-method']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /plugin not found in the catalog: no-such-method/);

    const enable = await cli.ward(['auth', 'enable', '-path=people', '-description=People', 'userpass']);
    assert.equal(enable.code, 0, enable.stderr);
    assert.match(enable.stdout, /Success! Enabled userpass auth method at: people\//);
    assert.match((await cli.ward(['auth', 'list'])).stdout, /^people\/\s+userpass/m);
    assert.ok(JSON.parse((await cli.ward(['auth', 'list', '-format=json'])).stdout)['people/']);

    const user = await cli.ward(['write', 'auth/people/users/alice', 'password=correct-horse', 'policies=default']);
    assert.equal(user.code, 0, user.stderr);
    const home = cli.env.HOME as string;
    const login = await runWardInProcess(
      ['login', '-method=userpass', '-path=people', 'username=alice', 'password=correct-horse'],
      { VAULT_ADDR: cli.env.VAULT_ADDR as string, HOME: home },
    );
    assert.equal(login.code, 0, login.stderr);
    const self = await runWardInProcess(['token', 'lookup', '-format=json'], {
      VAULT_ADDR: cli.env.VAULT_ADDR as string,
      HOME: home,
    });
    assert.equal(self.code, 0, self.stderr);
    assert.equal(JSON.parse(self.stdout).data.meta.username, 'alice', 'the saved token is the login token');
    const wrong = await runWardInProcess(
      ['login', '-method=userpass', '-path=people', 'username=alice', 'password=nope'],
      {
        VAULT_ADDR: cli.env.VAULT_ADDR as string,
        HOME: home,
      },
    );
    assert.equal(wrong.code, 2);

    assert.equal((await cli.ward(['auth', 'disable', 'people'])).code, 0);
    assert.doesNotMatch((await cli.ward(['auth', 'list'])).stdout, /people\//);
  });

  it('policy write (file and stdin) / read / list / delete', async () => {
    const file = join(cli.env.HOME as string, 'reader.hcl');
    await writeFile(file, 'path "secret/data/*" {\n  capabilities = ["read"]\n}\n');
    const write = await cli.ward(['policy', 'write', 'reader', file]);
    assert.equal(write.code, 0, write.stderr);
    assert.match(write.stdout, /Success! Uploaded policy: reader/);
    const fromStdin = await cli.ward(
      ['policy', 'write', 'lister', '-'],
      'path "secret/metadata/*" { capabilities = ["list"] }',
    );
    assert.equal(fromStdin.code, 0, fromStdin.stderr);

    assert.match((await cli.ward(['policy', 'read', 'reader'])).stdout, /capabilities = \["read"\]/);
    assert.equal(JSON.parse((await cli.ward(['policy', 'read', '-format=json', 'lister'])).stdout).name, 'lister');
    const list = await cli.ward(['policy', 'list']);
    assert.deepEqual(list.stdout.trim().split('\n').sort(), ['default', 'lister', 'reader', 'root']);

    const bad = await cli.ward(['policy', 'write', 'broken', '-'], 'path "x" { capabilities = ["fly"] }');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid capability/);
    assert.equal((await cli.ward(['policy', 'write', 'x', '/nonexistent.hcl'])).code, 1);

    assert.match((await cli.ward(['policy', 'delete', 'lister'])).stdout, /Success! Deleted policy: lister/);
    const gone = await cli.ward(['policy', 'read', 'lister']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /No policy named: lister/);
  });

  it('namespace create / list / delete, and VAULT_NAMESPACE scopes later commands', async () => {
    const create = await cli.ward(['namespace', 'create', '-custom-metadata=owner=ops', 'team']);
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /^path\s+team\/$/m);
    assert.deepEqual(JSON.parse((await cli.ward(['namespace', 'list', '-format=json'])).stdout), ['team/']);
    assert.match((await cli.ward(['namespace', 'list'])).stdout, /^team\/$/m);

    const inTeam = { ...cli.env, VAULT_NAMESPACE: 'team' };
    assert.equal((await runWardInProcess(['secrets', 'enable', '-path=kv2', '-version=2', 'kv'], inTeam)).code, 0);
    assert.equal((await runWardInProcess(['kv', 'put', 'kv2/app', 'k=ns'], inTeam)).code, 0);
    assert.equal((await runWardInProcess(['kv', 'get', '-field=k', 'kv2/app'], inTeam)).stdout, 'ns\n');
    assert.equal((await cli.ward(['kv', 'get', '-namespace=team', '-field=k', 'kv2/app'])).stdout, 'ns\n');
    assert.equal((await cli.ward(['kv', 'get', 'kv2/app'])).code, 2, 'the root namespace has no kv2/');

    const del = await cli.ward(['namespace', 'delete', 'team']);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /Success! Namespace deleted: team/);
    const empty = await cli.ward(['namespace', 'list']);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /No namespaces found/);
  });

  it('path-help prints the help the server generates for a path', async () => {
    const help = await cli.ward(['path-help', 'secret/']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /## DESCRIPTION/);
    assert.match(help.stdout, /data\//);
    assert.equal(
      typeof JSON.parse((await cli.ward(['path-help', '-format=json', 'sys/mounts'])).stdout).help,
      'string',
    );
  });
});
