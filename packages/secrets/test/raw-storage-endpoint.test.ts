import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type SqliteWard, startSqliteWard } from './ward-process.js';

// Issue 29 point 1: `raw_storage_endpoint = true` serves `sys/raw/*` on the decrypted storage,
// sudo only, refusing the keyring, the root key and the cluster identity; without it, 404.

let dir: string;
let enabled: SqliteWard;
let disabled: SqliteWard;

async function tokenWith(policy: string): Promise<string> {
  const name = `p${Math.random().toString(36).slice(2, 8)}`;
  const put = await request(enabled.url, 'PUT', `sys/policies/acl/${name}`, {
    token: enabled.rootToken,
    body: { policy },
  });
  assert.equal(put.status, 204, JSON.stringify(put.body));
  const created = await request(enabled.url, 'POST', 'auth/token/create', {
    token: enabled.rootToken,
    body: { policies: [name], no_default_policy: true },
  });
  return created.body.auth.client_token;
}

describe('sys/raw through bin/ward', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-raw-'));
    [enabled, disabled] = await Promise.all([
      startSqliteWard(join(dir, 'on'), { topLevel: 'raw_storage_endpoint = true' }),
      startSqliteWard(join(dir, 'off')),
    ]);
  });
  after(async () => {
    for (const w of [enabled, disabled]) w?.ward.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('is not named as having no effect at startup', () => {
    assert.doesNotMatch(enabled.ward.output(), /raw_storage_endpoint.*no effect/);
  });

  it('writes, reads (text and base64), lists and deletes a key with the root token', async () => {
    const token = enabled.rootToken;
    const put = await request(enabled.url, 'PUT', 'sys/raw/test/greeting', { token, body: { value: 'hello' } });
    assert.equal(put.status, 204, JSON.stringify(put.body));
    const read = await request(enabled.url, 'GET', 'sys/raw/test/greeting', { token });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.value, 'hello');
    const b64 = await request(enabled.url, 'GET', 'sys/raw/test/greeting?encoding=base64', { token });
    assert.equal(b64.body.data.value, Buffer.from('hello').toString('base64'));
    const putB64 = await request(enabled.url, 'PUT', 'sys/raw/test/bytes', {
      token,
      body: { value: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' },
    });
    assert.equal(putB64.status, 204, JSON.stringify(putB64.body));
    const bytes = await request(enabled.url, 'GET', 'sys/raw/test/bytes?encoding=base64', { token });
    assert.deepEqual([...Buffer.from(bytes.body.data.value, 'base64')], [0, 1, 2, 255]);
    const list = await request(enabled.url, 'LIST', 'sys/raw/test', { token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.keys, ['bytes', 'greeting']);
    assert.equal((await request(enabled.url, 'DELETE', 'sys/raw/test/greeting', { token })).status, 204);
    assert.equal((await request(enabled.url, 'GET', 'sys/raw/test/greeting', { token })).status, 404);
  });

  it('reads what the barrier decrypts: a KV secret under its mount', async () => {
    const token = enabled.rootToken;
    const mount = await request(enabled.url, 'POST', 'sys/mounts/rawkv', { token, body: { type: 'kv' } });
    assert.equal(mount.status, 204, JSON.stringify(mount.body));
    await request(enabled.url, 'PUT', 'rawkv/app', { token, body: { password: 's3cret' } });
    const mounts = await request(enabled.url, 'GET', 'sys/mounts', { token });
    const uuid = mounts.body.data['rawkv/'].uuid;
    const list = await request(enabled.url, 'LIST', 'sys/raw/logical/', { token });
    assert.ok(list.body.data.keys.includes(`${uuid}/`), JSON.stringify(list.body));
    const read = await request(enabled.url, 'GET', `sys/raw/logical/${uuid}/app`, { token });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(JSON.parse(read.body.data.value), { password: 's3cret' });
  });

  it('refuses the keyring, the root key and the cluster identity, even to root', async () => {
    const token = enabled.rootToken;
    const cases: [string, string, string][] = [
      ['GET', 'core/keyring', 'read'],
      ['PUT', 'core/keyring', 'write'],
      ['DELETE', 'core/keyring', 'delete'],
      ['GET', 'core/root-key', 'read'],
      ['PUT', 'core/cluster', 'write'],
    ];
    for (const [method, path, verb] of cases) {
      const res = await request(enabled.url, method, `sys/raw/${path}`, {
        token,
        body: method === 'PUT' ? { value: 'x' } : undefined,
      });
      assert.equal(res.status, 400, `${method} ${path}`);
      assert.match(res.body.errors.join(' '), new RegExp(`cannot ${verb} '${path}'`));
    }
    const list = await request(enabled.url, 'LIST', 'sys/raw/core/keyring', { token });
    assert.equal(list.status, 400);
    const health = await request(enabled.url, 'GET', 'sys/health');
    assert.equal(health.status, 200);
  });

  it('needs sudo: a token with read and list but not sudo is refused, one with sudo is served', async () => {
    const noSudo = await tokenWith('path "sys/raw/*" { capabilities = ["read", "list", "update"] }');
    const sudo = await tokenWith('path "sys/raw/*" { capabilities = ["read", "list", "update", "sudo"] }');
    await request(enabled.url, 'PUT', 'sys/raw/test/sudo', { token: enabled.rootToken, body: { value: 'v' } });
    assert.equal((await request(enabled.url, 'GET', 'sys/raw/test/sudo', { token: noSudo })).status, 403);
    assert.equal(
      (await request(enabled.url, 'PUT', 'sys/raw/test/sudo', { token: noSudo, body: { value: 'w' } })).status,
      403,
    );
    const read = await request(enabled.url, 'GET', 'sys/raw/test/sudo', { token: sudo });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.value, 'v');
  });

  it('answers 404 when raw_storage_endpoint is not set', async () => {
    const token = disabled.rootToken;
    assert.equal((await request(disabled.url, 'GET', 'sys/raw/core/mounts', { token })).status, 404);
    assert.equal((await request(disabled.url, 'LIST', 'sys/raw/', { token })).status, 404);
    assert.equal((await request(disabled.url, 'PUT', 'sys/raw/x', { token, body: { value: 'v' } })).status, 404);
  });
});
