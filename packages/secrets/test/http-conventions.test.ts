import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

/** Sends raw bytes and resolves with everything the server wrote until it closed or went quiet. */
function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let out = '';
    socket.on('data', (d) => {
      out += d.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
  });
}

describe('HTTP conventions of /v1', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ listener: { maxRequestSize: 1024 } });
  });
  after(() => t.stop());

  it('wraps data in the standard envelope with a UUID request id', async () => {
    const res = await t.request('GET', 'sys/mounts');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.body.request_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const key of ['lease_id', 'lease_duration', 'renewable', 'data', 'warnings', 'auth']) {
      assert.ok(key in res.body, `envelope has ${key}`);
    }
    assert.equal(res.body.lease_id, '');
    assert.equal(res.body.warnings, null);
  });

  it('answers 204 without a body when there is nothing to say, and 200 when there are warnings', async () => {
    const none = await t.request('POST', 'secret/config', { body: { max_versions: 5 } });
    assert.equal(none.status, 204);
    assert.equal(none.body, undefined);
    const warned = await t.request('POST', 'secret/data/w', { body: { data: { a: 1 }, bogus: true } });
    assert.equal(warned.status, 200);
    assert.deepEqual(warned.body.warnings, ['Endpoint ignored these unrecognized parameters: [bogus]']);
  });

  it('takes the token from X-Vault-Token, X-Service-Token or Authorization: Bearer', async () => {
    const path = 'secret/data/w';
    assert.equal((await t.request('GET', path, { token: null, headers: { 'X-Service-Token': 'root' } })).status, 200);
    assert.equal(
      (await t.request('GET', path, { token: null, headers: { Authorization: 'Bearer root' } })).status,
      200,
    );
    const basic = await t.request('GET', path, { token: null, headers: { Authorization: 'Basic cm9vdDo=' } });
    assert.equal(basic.status, 403);
  });

  it('refuses a missing or unknown token with 403 and the error envelope', async () => {
    for (const token of [null, 'hvs.unknown']) {
      const res = await t.request('GET', 'secret/data/w', { token });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { errors: ['permission denied'] });
    }
  });

  it('treats GET ?list=true as LIST and refuses a malformed list flag', async () => {
    const viaQuery = await t.request('GET', 'secret/metadata?list=true');
    const viaVerb = await t.request('LIST', 'secret/metadata');
    assert.equal(viaQuery.status, 200);
    assert.deepEqual(viaQuery.body.data, viaVerb.body.data);
    assert.equal((await t.request('GET', 'secret/metadata?list=maybe')).status, 400);
  });

  it('treats PUT like POST', async () => {
    const res = await t.request('PUT', 'secret/data/put', { body: { data: { via: 'put' } } });
    assert.equal(res.status, 200);
    assert.equal((await t.request('GET', 'secret/data/put')).body.data.data.via, 'put');
  });

  it('answers unknown mounts with 404, unknown engine paths with 404 unsupported path, unknown verbs with 405', async () => {
    const noMount = await t.request('GET', 'nowhere/x');
    assert.equal(noMount.status, 404);
    assert.deepEqual(noMount.body, { errors: ['no handler for route "nowhere/x". route entry not found.'] });
    const noPath = await t.request('GET', 'secret/bogus/x');
    assert.equal(noPath.status, 404);
    assert.deepEqual(noPath.body, { errors: ['1 error occurred:\n\t* unsupported path\n\n'] });
    const period = await t.request('POST', 'sys/mounts/bad.', { body: { type: 'kv' } });
    assert.equal(period.status, 404);
    const wrongVerb = await t.request('DELETE', 'sys/key-status');
    assert.equal(wrongVerb.status, 405);
    assert.deepEqual(wrongVerb.body, { errors: ['1 error occurred:\n\t* unsupported operation\n\n'] });
    assert.equal((await t.request('OPTIONS', 'secret/data/x')).status, 405);
  });

  it('refuses dot segments that would make a path name something else than it says', async () => {
    const raw = await rawExchange(
      t.url,
      'GET /v1/secret/data/../../sys/mounts HTTP/1.1\r\nHost: x\r\nX-Vault-Token: root\r\nConnection: close\r\n\r\n',
    );
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /must not contain/);
  });

  it('answers paths outside /v1/ with 404', async () => {
    const res = await fetch(`${t.url}/v2/secret/data/x`, { headers: { 'X-Vault-Token': 'root' } });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { errors: [] });
  });

  it('refuses malformed JSON, a body that is not an object, and writes to a path ending in /', async () => {
    const bad = await t.request('POST', 'secret/data/x', { body: '{"data":' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0], /^failed to parse JSON input: /);
    assert.equal((await t.request('POST', 'secret/data/x', { body: '[1,2]' })).status, 400);
    const slash = await t.request('POST', 'secret/data/x/', { body: { data: {} } });
    assert.deepEqual(slash.body, { errors: ["cannot write to a path ending in '/'"] });
  });

  it('reports field validation failures as 400 with the field named', async () => {
    const res = await t.request('POST', 'secret/config', { body: { max_versions: 'many' } });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0], /^Field validation failed: error converting input for field "max_versions"/);
  });

  it('accepts form-encoded bodies', async () => {
    const res = await t.request('POST', 'secret/config', {
      body: 'max_versions=7&cas_required=true',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 204);
    const read = await t.request('GET', 'secret/config');
    assert.equal(read.body.data.max_versions, 7);
    assert.equal(read.body.data.cas_required, true);
    await t.request('POST', 'secret/config', { body: { cas_required: false } });
  });

  it('refuses a body over max_request_size with 413 before reading it', async () => {
    const res = await t.request('POST', 'secret/data/big', { body: { data: { blob: 'x'.repeat(2000) } } });
    assert.equal(res.status, 413);
    assert.match(res.body.errors[0], /request body too large/);
    // Headers alone announce the size: the server answers without waiting for the body.
    const raw = await rawExchange(
      t.url,
      'POST /v1/secret/data/big HTTP/1.1\r\nHost: x\r\nX-Vault-Token: root\r\nContent-Length: 999999\r\n\r\n',
    );
    assert.match(raw, /^HTTP\/1\.1 413 /);
  });

  it('answers a namespace that does not exist with 404', async () => {
    const res = await t.request('GET', 'secret/data/w', { headers: { 'X-Vault-Namespace': 'ns1/' } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { errors: ['namespace not found'] });
    const root = await t.request('GET', 'secret/data/w', { headers: { 'X-Service-Namespace': 'root' } });
    assert.equal(root.status, 200);
  });

  it('mounts, tunes, lists and unmounts engines through sys/mounts', async () => {
    assert.equal(
      (await t.request('POST', 'sys/mounts/kv-a', { body: { type: 'kv-v2', description: 'A' } })).status,
      204,
    );
    const dup = await t.request('POST', 'sys/mounts/kv-a', { body: { type: 'kv' } });
    assert.deepEqual(dup.body, { errors: ['path is already in use at kv-a/'] });
    const reserved = await t.request('POST', 'sys/mounts/sys/x', { body: { type: 'kv' } });
    assert.equal(reserved.status, 400);
    const unknown = await t.request('POST', 'sys/mounts/zzz', { body: { type: 'nope' } });
    assert.deepEqual(unknown.body, { errors: ['plugin not found in the catalog: nope'] });
    const mount = await t.request('GET', 'sys/mounts/kv-a');
    assert.equal(mount.body.data.description, 'A');
    assert.match(mount.body.data.accessor, /^kv_[0-9a-f]{8}$/);
    assert.equal((await t.request('POST', 'sys/mounts/kv-a/tune', { body: { default_lease_ttl: '1h' } })).status, 204);
    const tune = await t.request('GET', 'sys/mounts/kv-a/tune');
    assert.equal(tune.body.data.default_lease_ttl, 3600);
    assert.equal(tune.body.data.max_lease_ttl, 2764800);
    await t.request('POST', 'kv-a/data/s', { body: { data: { x: 1 } } });
    assert.equal((await t.request('DELETE', 'sys/mounts/kv-a')).status, 204);
    assert.equal((await t.request('GET', 'kv-a/data/s')).status, 404);
    // Remounting the same path starts empty: the old data was erased with the mount.
    await t.request('POST', 'sys/mounts/kv-a', { body: { type: 'kv-v2' } });
    assert.equal((await t.request('GET', 'kv-a/data/s')).status, 404);
  });

  it('lists the token auth method and refuses unknown or reserved auth mounts', async () => {
    const list = await t.request('GET', 'sys/auth');
    assert.equal(list.body.data['token/'].type, 'token');
    assert.equal(list.body.data['token/'].description, 'token based credentials');
    const unknown = await t.request('POST', 'sys/auth/mine', { body: { type: 'nope' } });
    assert.deepEqual(unknown.body, { errors: ['plugin not found in the catalog: nope'] });
    const reserved = await t.request('POST', 'sys/auth/token', { body: { type: 'userpass' } });
    assert.equal(reserved.status, 400);
    // A secrets engine is not an auth method, nor the reverse.
    const engineAsAuth = await t.request('POST', 'sys/auth/kv', { body: { type: 'kv' } });
    assert.deepEqual(engineAsAuth.body, { errors: ['plugin not found in the catalog: kv'] });
    const authAsEngine = await t.request('POST', 'sys/mounts/people', { body: { type: 'userpass' } });
    assert.deepEqual(authAsEngine.body, { errors: ['plugin not found in the catalog: userpass'] });
  });

  it('answers ?help=1 with the help of the path, needing a valid token', async () => {
    const res = await t.request('GET', 'secret/data/x?help=1');
    assert.equal(res.status, 200);
    assert.match(res.body.help, /data\/\{path\}/);
    assert.equal((await t.request('GET', 'secret/data/x?help=1', { token: null })).status, 403);
  });
});
