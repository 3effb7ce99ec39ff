import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, ConnectionError } from './errors.js';
import { createClientDouble } from './testing.js';

describe('secrets-client', () => {
  it('always sends X-Vault-Request, and the token and namespace when set', async () => {
    const { client, double } = createClientDouble({ token: 'tok', namespace: 'team/' });
    double.on('GET', 'secret/foo', { status: 200, body: { data: { a: 1 } } });
    await client.read('secret/foo');
    const [call] = double.calls;
    assert.equal(call?.headers['x-vault-request'], 'true');
    assert.equal(call?.headers['x-vault-token'], 'tok');
    assert.equal(call?.headers['x-vault-namespace'], 'team/');

    const anonymous = createClientDouble();
    anonymous.double.on('GET', 'sys/seal-status', { status: 200, body: { sealed: false } });
    await anonymous.client.sys.status();
    assert.equal(anonymous.double.calls[0]?.headers['x-vault-token'], undefined);
    assert.equal(anonymous.double.calls[0]?.headers['x-vault-request'], 'true');
  });

  it('lists with the LIST verb and reads nothing-there as null', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    double.on('LIST', 'kv/', { status: 200, body: { data: { keys: ['a', 'b/'] } } });
    double.on('LIST', 'kv/none', { status: 404, body: { errors: [] } });
    double.on('GET', 'kv/none', { status: 404, body: { errors: [] } });
    assert.deepEqual((await client.list('kv/'))?.data?.keys, ['a', 'b/']);
    assert.equal(await client.list('kv/none'), null);
    assert.equal(await client.read('kv/none'), null);
  });

  it('turns an error answer into an ApiError with status and errors', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    double.on('PUT', 'sys/mounts/x', { status: 400, body: { errors: ['plugin not found in the catalog: nope'] } });
    const err = await client.sys.mounts.enable('x', { type: 'nope' }).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'api_error');
    assert.equal(err.status, 400);
    assert.deepEqual(err.errors, ['plugin not found in the catalog: nope']);
    assert.match(err.message, /Code: 400/);
  });

  it('reports a failed connection as a ConnectionError', async () => {
    const { client } = createClientDouble();
    const err = await client.sys.status().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError);
    assert.equal(err.code, 'connection_failed');
  });

  it('puts KV v2 data under data/ with cas, and deletes versions through delete/', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    double.on('PUT', 'secret/data/app', { status: 200, body: { data: { version: 3 } } });
    double.on('PUT', 'secret/delete/app', { status: 204 });
    double.on('LIST', 'secret/metadata/', { status: 200, body: { data: { keys: ['app'] } } });
    double.on('GET', 'sys/mounts/secret', { status: 200, body: { data: { options: { version: '2' } } } });
    const kv = client.kv('secret/');
    assert.equal(await kv.version(), 2);
    assert.equal((await kv.v2.put('app', { k: 'v' }, { cas: 2 })).data?.version, 3);
    assert.deepEqual(double.calls[1]?.body, { data: { k: 'v' }, options: { cas: 2 } });
    await kv.v2.delete('app', [1, 2]);
    assert.deepEqual(double.calls[2]?.body, { versions: [1, 2] });
    assert.deepEqual(await kv.v2.list(''), ['app']);
    assert.equal(kv.v2.dataPath('app'), 'secret/data/app');
  });

  it('returns a deleted KV v2 version (404 with an envelope) instead of throwing', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    const envelope = { data: { data: null, metadata: { version: 1, deletion_time: '2024-01-01T00:00:00Z' } } };
    double.on('GET', 'secret/data/gone', { status: 404, body: envelope });
    assert.equal((await client.kv('secret').v2.get('gone'))?.data?.data, null);
  });

  it('logs in with userpass at auth/<mount>/login/<username>', async () => {
    const { client, double } = createClientDouble();
    double.on('PUT', 'auth/people/login/alice', {
      status: 200,
      body: { auth: { client_token: 'new', accessor: 'acc', policies: ['default'], lease_duration: 60 } },
    });
    const auth = await client.login('userpass', { username: 'alice', password: 'pw' }, 'people');
    assert.equal(auth.client_token, 'new');
    assert.deepEqual(double.calls[0]?.body, { password: 'pw' });
  });

  it('logs in with okta at auth/<mount>/login/<username>, the MFA fields in the body', async () => {
    const { client, double } = createClientDouble();
    double.on('PUT', 'auth/okta/login/alice@example.com', {
      status: 200,
      body: { auth: { client_token: 'new', accessor: 'acc', policies: ['default'], lease_duration: 60 } },
    });
    const auth = await client.login('okta', { username: 'alice@example.com', password: 'pw', totp: '123456' });
    assert.equal(auth.client_token, 'new');
    assert.deepEqual(double.calls[0]?.body, { password: 'pw', totp: '123456' });
  });

  it('logs in with a token by looking it up with that token', async () => {
    const { client, double } = createClientDouble();
    double.on('GET', 'auth/token/lookup-self', {
      status: 200,
      body: { data: { accessor: 'acc', policies: ['root'], ttl: 0, renewable: false, type: 'service' } },
    });
    const auth = await client.login('token', { token: 'root' });
    assert.equal(double.calls[0]?.headers['x-vault-token'], 'root');
    assert.equal(auth.client_token, 'root');
    assert.deepEqual(auth.policies, ['root']);
  });

  it('finds the mount serving a path through sys/internal/ui/mounts', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    double.on('GET', 'sys/internal/ui/mounts/team/kv/app/db', {
      status: 200,
      body: { data: { type: 'kv', options: { version: '2' }, path: 'team/kv/' } },
    });
    const found = await client.sys.mounts.find('team/kv/app/db');
    assert.equal(found?.path, 'team/kv/');
    assert.equal(found?.mount.type, 'kv');
  });

  it('token helpers call the documented auth/token paths', async () => {
    const { client, double } = createClientDouble({ token: 't' });
    double.on('PUT', 'auth/token/create-orphan', { status: 200, body: { auth: { client_token: 'c' } } });
    double.on('PUT', 'auth/token/renew', { status: 200, body: { auth: { client_token: 'c' } } });
    double.on('PUT', 'auth/token/revoke-accessor', { status: 204 });
    await client.token.create({ policies: ['p'], ttl: '1h' }, { orphan: true });
    await client.token.renew('c', '30m');
    await client.token.revokeAccessor('acc');
    assert.deepEqual(
      double.calls.map((c) => c.body),
      [{ policies: ['p'], ttl: '1h' }, { token: 'c', increment: '30m' }, { accessor: 'acc' }],
    );
  });
});
