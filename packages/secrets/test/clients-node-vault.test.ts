import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 3: the real node-vault client works unchanged against Ward.

const DENIED = 'permission denied';

/** What node-vault rejects with for a status other than 200/204 (its ApiResponseError). */
interface Refusal {
  message: string;
  response: { statusCode: number; body: unknown };
}

/** The rejection of `promise`; fails the test if it resolves. */
async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof Error && 'response' in err, `expected an ApiResponseError, got ${String(err)}`);
    return err as unknown as Refusal;
  }
  assert.fail('expected the request to be refused');
}

describe('node-vault against a Ward server', () => {
  let t: TestServer;
  const client = (token: string, options: { noCustomHTTPVerbs?: boolean } = {}) =>
    nodeVault({ apiVersion: 'v1', endpoint: t.url, token, ...options });

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('reads health, seal status and initialisation', async () => {
    const vault = client('root');
    const health = await vault.health();
    assert.equal(health.initialized, true);
    assert.equal(health.sealed, false);
    assert.equal(health.standby, false);
    const status = await vault.status();
    assert.equal(status.sealed, false);
    assert.equal(status.t, 1);
    assert.equal(status.n, 1);
    assert.deepEqual(await vault.initialized(), { initialized: true });
  });

  it('mounts KV v2, then writes, reads, patches, lists and deletes secrets', async () => {
    const vault = client('root');
    await vault.mount({ mount_point: 'kv', type: 'kv', options: { version: '2' } });
    const mounts = await vault.mounts();
    assert.equal(mounts.data['kv/'].type, 'kv');
    assert.deepEqual(mounts.data['kv/'].options, { version: '2' });

    const first = await vault.write('kv/data/app/a', { data: { user: 'alice', port: 5432 } });
    assert.equal(first.data.version, 1);
    assert.equal((await vault.write('kv/data/app/a', { data: { user: 'bob', port: 5432 } })).data.version, 2);
    await vault.write('kv/data/app/nested/b', { data: { x: 1 } });

    const read = await vault.read('kv/data/app/a');
    assert.deepEqual(read.data.data, { user: 'bob', port: 5432 });
    assert.equal(read.data.metadata.version, 2);
    assert.deepEqual((await vault.read('kv/data/app/a?version=1')).data.data, { user: 'alice', port: 5432 });

    // node-vault's update() is a PATCH with application/merge-patch+json.
    assert.equal((await vault.update('kv/data/app/a', { data: { port: 6543 } })).data.version, 3);
    assert.deepEqual((await vault.read('kv/data/app/a')).data.data, { user: 'bob', port: 6543 });

    // list() sends the LIST verb.
    assert.deepEqual((await vault.list('kv/metadata/app')).data.keys, ['a', 'nested/']);

    await vault.delete('kv/metadata/app/a');
    const gone = await refusal(vault.read('kv/data/app/a'));
    assert.equal(gone.response.statusCode, 404);
    assert.deepEqual(gone.response.body, { errors: [] });
    assert.deepEqual((await vault.list('kv/metadata/app')).data.keys, ['nested/']);
  });

  it('mounts KV v1, then writes, reads, lists, deletes and unmounts', async () => {
    const vault = client('root');
    await vault.mount({ mount_point: 'kv1', type: 'kv', options: { version: '1' } });
    assert.equal(await vault.write('kv1/team/x', { k: 'v' }), '', 'a KV v1 write is a 204');
    await vault.write('kv1/team/y', { k: 'w' });
    assert.deepEqual((await vault.read('kv1/team/x')).data, { k: 'v' });
    assert.deepEqual((await vault.list('kv1/team')).data.keys, ['x', 'y']);
    await vault.delete('kv1/team/x');
    assert.equal((await refusal(vault.read('kv1/team/x'))).response.statusCode, 404);

    await vault.unmount({ mount_point: 'kv1' });
    assert.equal((await vault.mounts()).data['kv1/'], undefined);
  });

  it('lists with GET ?list=1 when custom verbs are turned off', async () => {
    const vault = client('root', { noCustomHTTPVerbs: true });
    await vault.write('secret/data/plain/one', { data: { a: 1 } });
    assert.deepEqual((await vault.list('secret/metadata/plain')).data.keys, ['one']);
  });

  it('writes, reads and lists policies through sys/policy', async () => {
    const vault = client('root');
    const rules = 'path "secret/data/pol/*" { capabilities = ["read"] }';
    await vault.addPolicy({ name: 'pol-reader', rules });
    const policy = await vault.getPolicy({ name: 'pol-reader' });
    assert.equal(policy.data.rules, rules);
    assert.equal(policy.rules, rules, 'sys/policy copies data to the top level, as established servers do');
    assert.ok((await vault.policies()).data.policies.includes('pol-reader'));

    await vault.removePolicy({ name: 'pol-reader' });
    assert.ok(!(await vault.policies()).data.policies.includes('pol-reader'));
  });

  it('issues a token limited by a policy; it may do what the policy grants and gets 403 otherwise', async () => {
    const root = client('root');
    await root.addPolicy({
      name: 'app-reader',
      rules: `
path "secret/data/app/*" { capabilities = ["read"] }
path "secret/metadata/app/*" { capabilities = ["list"] }`,
    });
    await root.write('secret/data/app/db', { data: { password: 's3cret' } });
    await root.write('secret/data/ops/key', { data: { k: 1 } });

    // tokenCreate switches the issuing client to the new token, so it gets a client of its own.
    const issuer = client('root');
    const created = await issuer.tokenCreate({ policies: ['app-reader'], ttl: '1h' });
    assert.deepEqual([...created.auth.policies].sort(), ['app-reader', 'default']);
    assert.equal(created.auth.lease_duration, 3600);
    assert.equal(issuer.token, created.auth.client_token);

    const limited = client(created.auth.client_token);
    const self = await limited.tokenLookupSelf();
    assert.equal(self.data.id, created.auth.client_token);
    assert.deepEqual([...self.data.policies].sort(), ['app-reader', 'default']);

    assert.deepEqual((await limited.read('secret/data/app/db')).data.data, { password: 's3cret' });
    assert.deepEqual((await limited.list('secret/metadata/app')).data.keys, ['db']);

    for (const denied of [
      () => limited.read('secret/data/ops/key'),
      () => limited.write('secret/data/app/db', { data: { password: 'changed' } }),
      () => limited.list('secret/metadata/ops'),
      () => limited.mounts(),
      () => limited.addPolicy({ name: 'escalate', rules: 'path "*" { capabilities = ["sudo"] }' }),
    ]) {
      const err = await refusal(denied());
      assert.equal(err.response.statusCode, 403);
      assert.equal(err.message, DENIED);
    }
    assert.deepEqual((await root.read('secret/data/app/db')).data.data, { password: 's3cret' }, 'unchanged');
  });

  it('is refused with a plain 403 for an unknown token', async () => {
    const err = await refusal(client('not-a-token').tokenLookupSelf());
    assert.equal(err.response.statusCode, 403);
    assert.equal(err.message, 'permission denied');
  });
});
