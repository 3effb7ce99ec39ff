import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { type CliHarness, expectSuccess, startCliHarness } from '../src/cli/testing.js';
import { withBackends } from '../src/server/testing.js';
import { createLeasingBackend, FakeUpstream } from './fakes/leasing-engine.js';

// Issue 21, point 2: the everyday commands users of the established CLI reach for.
describe('ward everyday commands against a running server', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness({ catalog: withBackends({ 'fake-creds': createLeasingBackend(new FakeUpstream()) }) });
  });
  after(() => cli.stop());
  const ok = async (args: string[], stdin?: string) => expectSuccess(await cli.ward(args, stdin), args);

  it('version and -version print the version', async () => {
    assert.match(await ok(['version']), /^Ward v\d+\.\d+\.\d+/);
    assert.match(await ok(['-version']), /^Ward v\d+\.\d+\.\d+/);
  });

  it('kv patch, undelete, destroy, rollback, metadata put', async () => {
    await ok(['kv', 'put', 'secret/app', 'user=ops', 'password=one']);
    await ok(['kv', 'patch', 'secret/app', 'password=two']);
    assert.deepEqual(JSON.parse(await ok(['kv', 'get', '-format=json', 'secret/app'])).data.data, {
      user: 'ops',
      password: 'two',
    });

    await ok(['kv', 'delete', 'secret/app']);
    assert.equal((await cli.ward(['kv', 'get', 'secret/app'])).code, 2);
    await ok(['kv', 'undelete', '-versions=2', 'secret/app']);
    assert.equal(await ok(['kv', 'get', '-field=password', 'secret/app']), 'two\n');

    await ok(['kv', 'rollback', '-version=1', 'secret/app']);
    assert.equal(await ok(['kv', 'get', '-field=password', 'secret/app']), 'one\n');
    assert.equal(await ok(['kv', 'metadata', 'get', '-field=current_version', 'secret/app']), '3\n');

    await ok(['kv', 'destroy', '-versions=1', 'secret/app']);
    const meta = JSON.parse(await ok(['kv', 'metadata', 'get', '-format=json', 'secret/app'])).data;
    assert.equal(meta.versions['1'].destroyed, true);
    const noVersions = await cli.ward(['kv', 'destroy', 'secret/app']);
    assert.equal(noVersions.code, 2);
    assert.match(noVersions.stderr, /no versions provided/);

    await ok(['kv', 'metadata', 'put', '-max-versions=5', '-custom-metadata=owner=ops', 'secret/app']);
    const settings = JSON.parse(await ok(['kv', 'metadata', 'get', '-format=json', 'secret/app'])).data;
    assert.equal(settings.max_versions, 5);
    assert.deepEqual(settings.custom_metadata, { owner: 'ops' });
  });

  it('kv enable-versioning upgrades a v1 mount in place: its keys become version 1', async () => {
    await ok(['secrets', 'enable', '-path=legacy', 'kv']);
    await ok(['write', 'legacy/app/db', 'password=s3cret']);
    assert.equal(await ok(['kv', 'enable-versioning', 'legacy/']), 'Success! Tuned the secrets engine at: legacy/\n');
    let got = await cli.ward(['kv', 'get', '-format=json', 'legacy/app/db']);
    while (got.code !== 0 && /Upgrading from non-versioned/.test(got.stderr)) {
      got = await cli.ward(['kv', 'get', '-format=json', 'legacy/app/db']);
    }
    assert.equal(got.code, 0, got.stderr);
    const secret = JSON.parse(got.stdout).data;
    assert.deepEqual(secret.data, { password: 's3cret' });
    assert.equal(secret.metadata.version, 1);
    const again = await cli.ward(['kv', 'enable-versioning', 'legacy/']);
    assert.equal(again.code, 0, 'already version 2: nothing to do');
    const mounts = JSON.parse(await ok(['secrets', 'list', '-format=json']));
    assert.deepEqual(mounts['legacy/'].options, { version: '2' });
  });

  it('token capabilities, for the caller and for another token', async () => {
    assert.equal(await ok(['token', 'capabilities', 'secret/data/x']), 'root\n');
    await ok(['policy', 'write', 'reader', '-'], 'path "secret/data/*" { capabilities = ["read", "list"] }');
    const token = (await ok(['token', 'create', '-policy=reader', '-field=token'])).trim();
    assert.equal(await ok(['token', 'capabilities', token, 'secret/data/x']), 'list, read\n');
  });

  it('auth tune, secrets move, audit enable/list/disable', async () => {
    await ok(['auth', 'enable', 'userpass']);
    await ok(['auth', 'tune', '-default-lease-ttl=1h', 'userpass/']);
    const tuned = await cli.server.request('GET', 'sys/auth/userpass/tune');
    assert.equal(tuned.body.data.default_lease_ttl, 3600);

    await ok(['secrets', 'enable', '-path=apps', '-version=2', 'kv']);
    await ok(['kv', 'put', 'apps/db', 'pw=x']);
    assert.match(
      await ok(['secrets', 'move', 'apps/', 'applications/']),
      /Finished moving secrets engine apps\/ to applications\//,
    );
    assert.equal(await ok(['kv', 'get', '-field=pw', 'applications/db']), 'x\n');

    const log = join(cli.env.HOME as string, 'audit.log');
    await ok(['audit', 'enable', 'file', `file_path=${log}`]);
    assert.match(await ok(['audit', 'list']), /^file\/\s+file/m);
    await ok(['audit', 'disable', 'file/']);
    assert.deepEqual(JSON.parse(await ok(['audit', 'list', '-format=json'])), {});
  });

  it('lease lookup / renew / revoke -prefix', async () => {
    assert.equal((await cli.server.request('POST', 'sys/mounts/fake', { body: { type: 'fake-creds' } })).status, 204);
    const leaseId = JSON.parse(await ok(['read', '-format=json', 'fake/creds/app'])).lease_id;
    assert.match(leaseId, /^fake\/creds\/app\//);
    assert.match(await ok(['lease', 'lookup', leaseId]), /expire_time/);
    assert.match(await ok(['lease', 'renew', '-increment=30m', leaseId]), /lease_duration/);
    await ok(['lease', 'revoke', '-prefix', 'fake/']);
    const after = await cli.server.request('PUT', 'sys/leases/lookup', { body: { lease_id: leaseId } });
    assert.equal(after.status, 400, 'the lease is gone');
  });

  it('namespace lookup and patch', async () => {
    await ok(['namespace', 'create', '-custom-metadata=team=a', 'ns-x']);
    assert.match(await ok(['namespace', 'lookup', 'ns-x']), /path\s+ns-x\//);
    await ok(['namespace', 'patch', '-custom-metadata=owner=ops', '-remove-custom-metadata=team', 'ns-x']);
    const read = JSON.parse(await ok(['namespace', 'lookup', '-format=json', 'ns-x']));
    assert.deepEqual(read.data.custom_metadata, { owner: 'ops' });
  });

  it('policy fmt rewrites a policy file in the canonical layout, keeping comments', async () => {
    const file = join(cli.env.HOME as string, 'app.hcl');
    await writeFile(
      file,
      '# app\npath "secret/data/app/*" {\ncapabilities=["read"]\n    max_wrapping_ttl = "1h"\n}\n\n\n',
    );
    await ok(['policy', 'fmt', file]);
    assert.equal(
      await readFile(file, 'utf8'),
      '# app\npath "secret/data/app/*" {\n  capabilities     = ["read"]\n  max_wrapping_ttl = "1h"\n}\n',
    );
    await writeFile(file, 'path "x" {');
    assert.equal((await cli.ward(['policy', 'fmt', file])).code, 1);
  });

  it('print token prints the token in use; -format=yaml prints YAML', async () => {
    assert.equal(await ok(['print', 'token']), `${cli.server.rootToken}\n`);
    const yaml = parseYaml(await ok(['kv', 'get', '-format=yaml', 'secret/app']));
    assert.equal(yaml.data.data.user, 'ops');
    assert.equal(parseYaml(await ok(['token', 'lookup', '-format=yaml'])).data.id, cli.server.rootToken);
  });
});
