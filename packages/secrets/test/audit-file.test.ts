import assert from 'node:assert/strict';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// biome-ignore lint/suspicious/noExplicitAny: audit entries are JSON the test walks freely
type Entry = Record<string, any>;

/** The JSON lines of an audit log, in order. */
async function entries(file: string): Promise<Entry[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

const HASH = /^hmac-sha256:[0-9a-f]{64}$/;

describe('audit file device over HTTP', () => {
  let t: TestServer;
  let dir: string;
  let log: string;
  before(async () => {
    t = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'ward-audit-'));
    log = join(dir, 'nested', 'audit.log');
  });
  after(() => t.stop());

  it('enables a file device, lists it with a trailing slash and creates the file with mode 0600', async () => {
    const enable = await t.request('POST', 'sys/audit/file', {
      body: { type: 'file', description: 'main log', options: { file_path: log } },
    });
    assert.equal(enable.status, 204, JSON.stringify(enable.body));
    const list = await t.request('GET', 'sys/audit');
    assert.equal(list.status, 200);
    const expected = {
      path: 'file/',
      type: 'file',
      description: 'main log',
      options: { file_path: log },
      local: false,
    };
    assert.deepEqual(list.body.data, { 'file/': expected });
    assert.deepEqual(list.body['file/'], expected, 'copied to the top level');
    assert.equal((await stat(log)).mode & 0o777, 0o600);
  });

  it('refuses a path in use, an unknown type and a file device without file_path', async () => {
    const again = await t.request('POST', 'sys/audit/file', { body: { type: 'file', options: { file_path: log } } });
    assert.deepEqual([again.status, again.body], [400, { errors: ['path already in use'] }]);
    const nested = await t.request('POST', 'sys/audit/file/sub', {
      body: { type: 'file', options: { file_path: log } },
    });
    assert.deepEqual([nested.status, nested.body], [400, { errors: ['path already in use'] }]);
    const unknown = await t.request('POST', 'sys/audit/x', { body: { type: 'syslog2' } });
    assert.deepEqual([unknown.status, unknown.body], [400, { errors: ['unknown backend type: "syslog2"'] }]);
    const noPath = await t.request('POST', 'sys/audit/y', { body: { type: 'file' } });
    assert.deepEqual([noPath.status, noPath.body], [400, { errors: ['file_path is required'] }]);
  });

  it('takes `path` as the legacy name of `file_path` (hvac’s tests send it)', async () => {
    // Issue 18: hvac's test_audit.py enables a file device with options {"path": ...}.
    const legacy = join(dir, 'legacy.log');
    const enable = await t.request('POST', 'sys/audit/legacy', { body: { type: 'file', options: { path: legacy } } });
    assert.equal(enable.status, 204, JSON.stringify(enable.body));
    await t.request('GET', 'sys/mounts');
    assert.match(await readFile(legacy, 'utf8'), /"type":"request"/);
    assert.equal((await t.request('DELETE', 'sys/audit/legacy')).status, 204);
  });

  it('writes a request line then a response line per request, with tokens and secret values as digests', async () => {
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['default'], ttl: '1h' } });
    const { client_token: newToken, accessor: newAccessor } = created.body.auth;
    const write = await t.request('POST', 'secret/data/app/db', {
      body: { data: { password: 'correct-horse-battery', port: 5432, tls: true } },
    });
    assert.equal(write.status, 200);
    const read = await t.request('GET', 'secret/data/app/db');
    assert.equal(read.body.data.data.password, 'correct-horse-battery');
    const denied = await t.request('GET', 'secret/data/app/db', { token: newToken });
    assert.equal(denied.status, 403);

    const text = await readFile(log, 'utf8');
    for (const secret of ['correct-horse-battery', newToken, newAccessor]) {
      assert.equal(text.includes(secret), false, `${secret} must not appear in the log`);
    }
    const lines = await entries(log);
    const ofWrite = lines.filter((e) => e.request.path === 'secret/data/app/db' && e.request.operation !== 'read');
    assert.deepEqual(
      ofWrite.map((e) => e.type),
      ['request', 'response'],
    );
    const [req, res] = ofWrite as [Entry, Entry];
    assert.equal(req.request.id, res.request.id);
    assert.equal(req.request.operation, 'create');
    assert.equal(req.request.mount_type, 'kv');
    assert.deepEqual(req.request.namespace, { id: 'root' });
    assert.match(req.request.client_token, HASH);
    assert.match(req.auth.client_token, HASH);
    assert.match(req.auth.accessor, HASH);
    assert.deepEqual(req.auth.policies, ['root'], 'policies stay plain');
    assert.equal(req.auth.display_name, 'root');
    assert.match(req.request.data.data.password, HASH);
    assert.equal(req.request.data.data.port, 5432, 'numbers stay plain');
    assert.equal(req.request.data.data.tls, true, 'booleans stay plain');
    assert.equal(req.request.remote_address, '127.0.0.1');
    assert.equal(req.error, '');
    assert.match(res.time, /^\d{4}-\d\d-\d\dT/);
    assert.equal(typeof res.response.data.version, 'number');

    const ofCreate = lines.find((e) => e.type === 'response' && e.request.path === 'auth/token/create');
    assert.match(ofCreate?.response.auth.client_token, HASH, 'an issued token is hashed');
    assert.match(ofCreate?.response.auth.accessor, HASH);

    const ofRead = lines.find(
      (e) => e.type === 'response' && e.request.path === 'secret/data/app/db' && e.request.operation === 'read',
    );
    assert.match(ofRead?.response.data.data.password, HASH);
    const ofDenied = lines.filter((e) => e.type === 'response' && e.error !== '');
    assert.ok(
      ofDenied.some((e) => e.error.includes('permission denied')),
      'errors stay plain',
    );
    const deniedPair = lines.filter((e) => e.request.id === ofDenied[0]?.request.id);
    assert.deepEqual(
      deniedPair.map((e) => e.type),
      ['request', 'response'],
      'a refused request is logged as a request and a response',
    );

    // Refused credentials are audited too, without the token in clear.
    const before = (await entries(log)).length;
    const bad = await t.request('GET', 'secret/data/app/db', { token: 'hvs.not-a-real-token' });
    assert.equal(bad.status, 403);
    const ofBad = (await entries(log)).slice(before).filter((e) => e.request.path === 'secret/data/app/db');
    assert.deepEqual(
      ofBad.map((e) => e.type),
      ['request', 'response'],
    );
    assert.match(ofBad[1]?.error ?? '', /permission denied/);
    assert.equal((await readFile(log, 'utf8')).includes('hvs.not-a-real-token'), false);

    // The digest sys/audit-hash gives for a known value is the one in the log.
    const hash = await t.request('POST', 'sys/audit-hash/file', { body: { input: 'correct-horse-battery' } });
    assert.equal(hash.status, 200);
    assert.match(hash.body.data.hash, HASH);
    assert.equal(hash.body.hash, hash.body.data.hash, 'copied to the top level');
    assert.equal(req.request.data.data.password, hash.body.data.hash);
    assert.equal(
      req.request.client_token,
      (await t.request('POST', 'sys/audit-hash/file', { body: { input: 'root' } })).body.hash,
    );
  });

  it('answers sys/audit-hash for an unknown device with 400', async () => {
    const res = await t.request('POST', 'sys/audit-hash/nope', { body: { input: 'x' } });
    assert.deepEqual([res.status, res.body], [400, { errors: ['unknown audit backend'] }]);
  });

  it('needs sudo: a token without it is refused', async () => {
    await t.request('PUT', 'sys/policies/acl/audit-reader', {
      body: {
        policy: 'path "sys/audit" { capabilities = ["read"] }\npath "sys/audit/*" { capabilities = ["update"] }',
      },
    });
    const token = (await t.request('POST', 'auth/token/create', { body: { policies: ['audit-reader'] } })).body.auth
      .client_token;
    assert.equal((await t.request('GET', 'sys/audit', { token })).status, 403);
    const enable = await t.request('POST', 'sys/audit/other', {
      token,
      body: { type: 'file', options: { file_path: 'discard' } },
    });
    assert.equal(enable.status, 403);
  });

  it('keeps the table and the salt across seal and unseal', async () => {
    const before = (await t.request('POST', 'sys/audit-hash/file', { body: { input: 'v' } })).body.hash;
    await t.server.core.seal();
    await t.server.core.submitUnsealKey(t.unsealKey);
    assert.deepEqual(Object.keys((await t.request('GET', 'sys/audit')).body.data), ['file/']);
    assert.equal((await t.request('POST', 'sys/audit-hash/file', { body: { input: 'v' } })).body.hash, before);
    const size = (await stat(log)).size;
    await t.request('GET', 'sys/mounts');
    assert.ok((await stat(log)).size > size, 'the restored device writes');
  });

  it('disables the device: nothing more is written and its hash is gone', async () => {
    assert.equal((await t.request('DELETE', 'sys/audit/file')).status, 204);
    assert.deepEqual((await t.request('GET', 'sys/audit')).body.data, {});
    const size = (await stat(log)).size;
    await t.request('GET', 'sys/mounts');
    assert.equal((await stat(log)).size, size);
    assert.equal((await t.request('POST', 'sys/audit-hash/file', { body: { input: 'v' } })).status, 400);
    assert.equal((await t.request('DELETE', 'sys/audit/file')).status, 204, 'disabling twice is fine');
  });

  it('is served only in the root namespace', async () => {
    await t.request('POST', 'sys/namespaces/team');
    const res = await t.request('GET', 'sys/audit', { headers: { 'X-Vault-Namespace': 'team' } });
    assert.equal(res.status, 404);
  });
});
