import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CliHarness, expectSuccess, startCliHarness } from '../src/cli/testing.js';

// What `-format=json` prints, as the established CLI does: `list` prints the
// JSON array of keys alone; `read` and `kv get` print the whole secret response.
describe('ward -format=json prints what the established CLI prints', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await startCliHarness();
  });
  after(() => cli.stop());
  const ok = async (args: string[]) => expectSuccess(await cli.ward(args), args);

  it('list -format=json prints only the JSON array of keys (yaml likewise)', async () => {
    await ok(['secrets', 'enable', '-path=v1', 'kv']);
    await ok(['write', 'v1/app/db', 'password=x']);
    await ok(['write', 'v1/app/cache/a', 'k=v']);
    assert.deepEqual(JSON.parse(await ok(['list', '-format=json', 'v1/app'])), ['cache/', 'db']);
    assert.equal(await ok(['list', '-format=yaml', 'v1/app']), '- cache/\n- db\n');
    assert.deepEqual(JSON.parse(await ok(['kv', 'list', '-format=json', 'v1/app'])), ['cache/', 'db']);
  });

  it('namespace list -format=json prints only the JSON array of keys', async () => {
    await ok(['namespace', 'create', 'team']);
    assert.deepEqual(JSON.parse(await ok(['namespace', 'list', '-format=json'])), ['team/']);
  });

  it('read -format=json prints the whole secret response', async () => {
    await ok(['write', 'v1/whole', 'password=x', 'ttl=1h']);
    const read = JSON.parse(await ok(['read', '-format=json', 'v1/whole']));
    for (const field of ['request_id', 'lease_id', 'lease_duration', 'renewable', 'data', 'warnings']) {
      assert.ok(Object.hasOwn(read, field), `${field} in ${JSON.stringify(read)}`);
    }
    assert.deepEqual(read.data, { password: 'x', ttl: '1h' });
    assert.equal(read.lease_duration, 3600);
    assert.equal(read.renewable, false);
  });

  it('kv get -format=json prints the whole secret response (v1 and v2)', async () => {
    const v1 = JSON.parse(await ok(['kv', 'get', '-format=json', 'v1/whole']));
    assert.equal(typeof v1.request_id, 'string');
    assert.deepEqual(v1.data, { password: 'x', ttl: '1h' });
    await ok(['kv', 'put', 'secret/app', 'user=ops']);
    const v2 = JSON.parse(await ok(['kv', 'get', '-format=json', 'secret/app']));
    assert.equal(typeof v2.request_id, 'string');
    assert.deepEqual(v2.data.data, { user: 'ops' });
    assert.equal(v2.data.metadata.version, 1);
  });
});
