import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard, tempHome } from '../src/cli/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('ward operator and status against a new server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer({ uninitialized: true });
    env = { VAULT_ADDR: server.url, HOME: await tempHome() };
  });
  after(() => server.stop());

  it('operator init, status (exit 2 while sealed), operator unseal with a key from stdin, operator seal', async () => {
    const before = await runWard(['operator', 'init', '-status'], env);
    assert.equal(before.code, 2);
    assert.match(before.stdout, /not initialized/);

    const init = await runWard(['operator', 'init', '-key-shares=3', '-key-threshold=2', '-format=json'], env);
    assert.equal(init.code, 0, init.stderr);
    const { keys_base64: keys, root_token: root } = JSON.parse(init.stdout);
    assert.equal(keys.length, 3);

    const sealed = await runWard(['status'], env);
    assert.equal(sealed.code, 2, 'status exits 2 while sealed');
    assert.match(sealed.stdout, /Sealed\s+true/);
    assert.match(sealed.stdout, /Unseal Progress\s+0\/2/);

    const first = await runWard(['operator', 'unseal', keys[0]], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Unseal Progress\s+1\/2/);
    const second = await runWard(['operator', 'unseal', '-'], env, `${keys[1]}\n`);
    assert.match(second.stdout, /Sealed\s+false/);

    const status = await runWard(['status', '-format=json'], env);
    assert.equal(status.code, 0);
    assert.equal(JSON.parse(status.stdout).sealed, false);
    assert.equal((await runWard(['status', '-field=Threshold'], env)).stdout, '2\n');

    const denied = await runWard(['operator', 'seal'], env);
    assert.equal(denied.code, 2, 'sealing needs a token');
    const seal = await runWard(['operator', 'seal'], { ...env, VAULT_TOKEN: root });
    assert.equal(seal.code, 0, seal.stderr);
    assert.match(seal.stdout, /Success! Server is sealed/);
    assert.equal((await runWard(['status'], env)).code, 2);
    const reset = await runWard(['operator', 'unseal', '-reset'], env);
    assert.equal(reset.code, 0, reset.stderr);
  });
});

describe('ward secrets / auth / policy / namespace / path-help against a running server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  const ward = (args: string[], stdin?: string) => runWard(args, env, stdin);
  before(async () => {
    server = await startTestServer();
    env = { VAULT_ADDR: server.url, VAULT_TOKEN: server.rootToken, HOME: await tempHome() };
  });
  after(() => server.stop());

  it('secrets enable / list / tune / disable', async () => {
    const enable = await ward(['secrets', 'enable', '-path=apps', '-version=2', '-description=App secrets', 'kv']);
    assert.equal(enable.code, 0, enable.stderr);
    assert.match(enable.stdout, /Success! Enabled the kv secrets engine at: apps\//);
    const list = await ward(['secrets', 'list']);
    assert.match(list.stdout, /^apps\/\s+kv\s+kv_[0-9a-f]{8}\s+App secrets$/m);
    assert.match(list.stdout, /^secret\/\s+kv/m);
    const json = JSON.parse((await ward(['secrets', 'list', '-format=json'])).stdout);
    assert.deepEqual(json['apps/'].options, { version: '2' });
    assert.match((await ward(['secrets', 'list', '-detailed'])).stdout, /Default TTL/);

    const tune = await ward(['secrets', 'tune', '-default-lease-ttl=1h', '-max-lease-ttl=2h', 'apps']);
    assert.equal(tune.code, 0, tune.stderr);
    assert.match(tune.stdout, /Success! Tuned the secrets engine at: apps\//);
    assert.equal((await server.request('GET', 'sys/mounts/apps/tune')).body.data.max_lease_ttl, 7200);

    const taken = await ward(['secrets', 'enable', '-path=apps', 'kv']);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /^Error: Error making API request\.\n\nURL: PUT http:\/\/.*\/v1\/sys\/mounts\/apps/);
    assert.match(taken.stderr, /Code: 400\. Errors:\n\n\* .*apps/);

    assert.match((await ward(['secrets', 'disable', 'apps'])).stdout, /Success! Disabled the secrets engine/);
    assert.doesNotMatch((await ward(['secrets', 'list'])).stdout, /apps\//);
  });

  it('auth list / enable / disable (the token method is always there)', async () => {
    const list = await ward(['auth', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^token\/\s+token/m);
    // userpass is not built yet: the server's refusal comes through as an API error.
    const userpass = await ward(['auth', 'enable', 'userpass']);
    assert.equal(userpass.code, 2);
    assert.match(userpass.stderr, /plugin not found in the catalog: userpass/);
    // Any catalogued type mounts under auth/, which is enough to exercise enable, list and disable.
    const enable = await ward(['auth', 'enable', '-path=people', '-description=People', 'kv']);
    assert.equal(enable.code, 0, enable.stderr);
    assert.match(enable.stdout, /Success! Enabled kv auth method at: people\//);
    assert.match((await ward(['auth', 'list'])).stdout, /^people\/\s+kv/m);
    assert.ok(JSON.parse((await ward(['auth', 'list', '-format=json'])).stdout)['people/']);
    assert.equal((await ward(['auth', 'disable', 'people'])).code, 0);
    assert.doesNotMatch((await ward(['auth', 'list'])).stdout, /people\//);
  });

  it('policy write (file and stdin) / read / list / delete', async () => {
    const file = join(env.HOME as string, 'reader.hcl');
    await writeFile(file, 'path "secret/data/*" {\n  capabilities = ["read"]\n}\n');
    const write = await ward(['policy', 'write', 'reader', file]);
    assert.equal(write.code, 0, write.stderr);
    assert.match(write.stdout, /Success! Uploaded policy: reader/);
    const fromStdin = await ward(
      ['policy', 'write', 'lister', '-'],
      'path "secret/metadata/*" { capabilities = ["list"] }',
    );
    assert.equal(fromStdin.code, 0, fromStdin.stderr);

    assert.match((await ward(['policy', 'read', 'reader'])).stdout, /capabilities = \["read"\]/);
    assert.equal(JSON.parse((await ward(['policy', 'read', '-format=json', 'lister'])).stdout).name, 'lister');
    const list = await ward(['policy', 'list']);
    assert.deepEqual(list.stdout.trim().split('\n').sort(), ['default', 'lister', 'reader', 'root']);

    const bad = await ward(['policy', 'write', 'broken', '-'], 'path "x" { capabilities = ["fly"] }');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid capability/);
    assert.equal((await ward(['policy', 'write', 'x', '/nonexistent.hcl'])).code, 1);

    assert.match((await ward(['policy', 'delete', 'lister'])).stdout, /Success! Deleted policy: lister/);
    const gone = await ward(['policy', 'read', 'lister']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /No policy named: lister/);
  });

  it('namespace create / list / delete, and VAULT_NAMESPACE scopes later commands', async () => {
    const create = await ward(['namespace', 'create', '-custom-metadata=owner=ops', 'team']);
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /^path\s+team\/$/m);
    assert.deepEqual(JSON.parse((await ward(['namespace', 'list', '-format=json'])).stdout).keys, ['team/']);
    assert.match((await ward(['namespace', 'list'])).stdout, /^team\/$/m);

    const inTeam = { ...env, VAULT_NAMESPACE: 'team' };
    assert.equal((await runWard(['secrets', 'enable', '-path=kv2', '-version=2', 'kv'], inTeam)).code, 0);
    assert.equal((await runWard(['kv', 'put', 'kv2/app', 'k=ns'], inTeam)).code, 0);
    assert.equal((await runWard(['kv', 'get', '-field=k', 'kv2/app'], inTeam)).stdout, 'ns\n');
    assert.equal((await runWard(['kv', 'get', '-namespace=team', '-field=k', 'kv2/app'], env)).stdout, 'ns\n');
    assert.equal((await ward(['kv', 'get', 'kv2/app'])).code, 2, 'the root namespace has no kv2/');

    const del = await ward(['namespace', 'delete', 'team']);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /Success! Namespace deleted: team/);
    const empty = await ward(['namespace', 'list']);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /No namespaces found/);
  });

  it('path-help prints the help the server generates for a path', async () => {
    const help = await ward(['path-help', 'secret/']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /## DESCRIPTION/);
    assert.match(help.stdout, /data\//);
    assert.equal(typeof JSON.parse((await ward(['path-help', '-format=json', 'sys/mounts'])).stdout).help, 'string');
  });
});
