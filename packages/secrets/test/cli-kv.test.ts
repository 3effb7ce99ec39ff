import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, startCliHarness } from '../src/cli/testing.js';

describe('ward kv / read / write / list / delete against a running server', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());

  it('kv put / get on the KV v2 mount rewrites secret/app to secret/data/app', async () => {
    const put = await cli.ward(['kv', 'put', 'secret/app', 'password=s3cret', 'user=ops']);
    assert.equal(put.code, 0, put.stderr);
    assert.match(put.stdout, /secret\/data\/app/);
    assert.match(put.stdout, /version\s+1/);

    const get = await cli.ward(['kv', 'get', 'secret/app']);
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /password\s+s3cret/);
    assert.match(get.stdout, /user\s+ops/);

    const field = await cli.ward(['kv', 'get', '-field=password', 'secret/app']);
    assert.equal(field.stdout, 's3cret\n');

    const json = await cli.ward(['kv', 'get', '-format=json', 'secret/app']);
    assert.deepEqual(JSON.parse(json.stdout).data.data, { password: 's3cret', user: 'ops' });

    const direct = await cli.server.request('GET', 'secret/data/app');
    assert.equal(direct.body.data.data.password, 's3cret');
  });

  it('kv put takes k=@file and a JSON object on stdin; -cas guards the version', async () => {
    const home = cli.env.HOME as string;
    await writeFile(join(home, 'cert.pem'), 'PEM TEXT');
    const fromFile = await cli.ward(['kv', 'put', 'secret/tls', `cert=@${join(home, 'cert.pem')}`]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal((await cli.ward(['kv', 'get', '-field=cert', 'secret/tls'])).stdout, 'PEM TEXT\n');

    const fromStdin = await cli.ward(['kv', 'put', 'secret/tls', '-'], '{"cert":"other","n":2}');
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    const json = JSON.parse((await cli.ward(['kv', 'get', '-format=json', 'secret/tls'])).stdout);
    assert.deepEqual(json.data.data, { cert: 'other', n: 2 });

    const stale = await cli.ward(['kv', 'put', '-cas=1', 'secret/tls', 'cert=x']);
    assert.equal(stale.code, 2);
    assert.match(stale.stderr, /check-and-set parameter did not match/);
    assert.equal((await cli.ward(['kv', 'put', '-cas=2', 'secret/tls', 'cert=x'])).code, 0);
  });

  it('kv list, kv metadata get, kv delete (soft) and kv metadata delete', async () => {
    await cli.ward(['kv', 'put', 'secret/team/a', 'k=1']);
    await cli.ward(['kv', 'put', 'secret/team/a', 'k=2']);
    const list = await cli.ward(['kv', 'list', 'secret/team']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^Keys\n----\na$/m);
    assert.deepEqual(JSON.parse((await cli.ward(['kv', 'list', '-format=json', 'secret/'])).stdout).sort(), [
      'app',
      'team/',
      'tls',
    ]);

    const meta = await cli.ward(['kv', 'metadata', 'get', 'secret/team/a']);
    assert.equal(meta.code, 0, meta.stderr);
    assert.match(meta.stdout, /current_version\s+2/);
    assert.match(meta.stdout, /==== Version 1 ====/);
    assert.equal((await cli.ward(['kv', 'metadata', 'get', '-field=current_version', 'secret/team/a'])).stdout, '2\n');

    const del = await cli.ward(['kv', 'delete', 'secret/team/a']);
    assert.equal(del.code, 0, del.stderr);
    assert.match(del.stdout, /Success! Data deleted \(if it existed\) at: secret\/data\/team\/a/);
    const gone = await cli.ward(['kv', 'get', 'secret/team/a']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /No value found at secret\/data\/team\/a: version 2 is deleted/);
    assert.equal((await cli.ward(['kv', 'get', '-version=1', '-field=k', 'secret/team/a'])).stdout, '1\n');

    await cli.ward(['kv', 'delete', '-versions=1', 'secret/team/a']);
    assert.equal((await cli.ward(['kv', 'get', '-version=1', 'secret/team/a'])).code, 2);

    assert.equal((await cli.ward(['kv', 'metadata', 'delete', 'secret/team/a'])).code, 0);
    const none = await cli.ward(['kv', 'metadata', 'get', 'secret/team/a']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No value found at secret\/metadata\/team\/a/);
  });

  it('works on a KV v1 mount with the same commands, and -mount names the mount', async () => {
    assert.equal((await cli.ward(['secrets', 'enable', '-path=legacy', 'kv'])).code, 0);
    const put = await cli.ward(['kv', 'put', 'legacy/db', 'pw=one']);
    assert.equal(put.code, 0, put.stderr);
    assert.match(put.stdout, /Success! Data written to: legacy\/db/);
    assert.equal((await cli.ward(['kv', 'get', '-field=pw', 'legacy/db'])).stdout, 'one\n');
    assert.equal((await cli.ward(['kv', 'get', '-mount=legacy', '-field=pw', 'db'])).stdout, 'one\n');
    assert.match((await cli.ward(['kv', 'list', 'legacy/'])).stdout, /^db$/m);
    const meta = await cli.ward(['kv', 'metadata', 'get', 'legacy/db']);
    assert.equal(meta.code, 1);
    assert.match(meta.stderr, /Metadata not supported on KV Version 1/);
    assert.equal((await cli.ward(['kv', 'delete', 'legacy/db'])).code, 0);
    assert.equal((await cli.ward(['kv', 'get', 'legacy/db'])).code, 2);
    assert.equal((await cli.ward(['kv', 'get', 'nomount/x'])).code, 2);
  });

  it('read / write / list / delete on raw API paths', async () => {
    const write = await cli.ward(['write', 'secret/data/raw', '-'], '{"data":{"a":"b"}}');
    assert.equal(write.code, 0, write.stderr);
    assert.match(write.stdout, /version\s+1/);
    const read = await cli.ward(['read', '-format=json', 'secret/data/raw']);
    assert.equal(JSON.parse(read.stdout).data.data.a, 'b');
    assert.match((await cli.ward(['read', 'secret/data/raw', 'version=1'])).stdout, /data\s+map\[a:b\]/);
    const list = await cli.ward(['list', 'secret/metadata']);
    assert.match(list.stdout, /^raw$/m);
    const del = await cli.ward(['delete', 'secret/metadata/raw']);
    assert.equal(del.code, 0);
    assert.match(del.stdout, /Success! Data deleted \(if it existed\) at: secret\/metadata\/raw/);
    const missing = await cli.ward(['read', 'secret/data/raw']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^Error: No value found at secret\/data\/raw/);

    assert.equal((await cli.ward(['write', 'legacy/x'])).code, 2, 'write without data needs -force');
    const v1 = await cli.ward(['write', 'legacy/x', 'a=1', 'b=2']);
    assert.match(v1.stdout, /Success! Data written to: legacy\/x/);
    assert.deepEqual(JSON.parse((await cli.ward(['read', '-format=json', 'legacy/x'])).stdout).data, {
      a: '1',
      b: '2',
    });
  });
});
