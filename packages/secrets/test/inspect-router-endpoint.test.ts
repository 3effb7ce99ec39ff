import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type SqliteWard, startSqliteWard } from './ward-process.js';

// Issue 29 point 1: `introspection_endpoint = true` serves `sys/internal/inspect/router/:tag`
// (the router's tables: root, uuid, accessor, storage), sudo only; without it, 404.

let dir: string;
let enabled: SqliteWard;
let disabled: SqliteWard;

interface RouterRecord {
  mount_path: string;
  mount_namespace: string;
  mount_type: string;
  mount_class: string;
  uuid: string;
  accessor: string;
  storage_prefix: string;
}

describe('sys/internal/inspect/router through bin/ward', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-inspect-'));
    [enabled, disabled] = await Promise.all([
      startSqliteWard(join(dir, 'on'), { topLevel: 'introspection_endpoint = true' }),
      startSqliteWard(join(dir, 'off')),
    ]);
    const token = enabled.rootToken;
    await request(enabled.url, 'POST', 'sys/mounts/inspected', { token, body: { type: 'kv' } });
    await request(enabled.url, 'POST', 'sys/auth/up', { token, body: { type: 'userpass' } });
  });
  after(async () => {
    for (const w of [enabled, disabled]) w?.ward.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('is not named as having no effect at startup', () => {
    assert.doesNotMatch(enabled.ward.output(), /introspection_endpoint.*no effect/);
  });

  it('reports every mount the router holds, as sys/mounts and sys/auth know them, under each tag', async () => {
    const token = enabled.rootToken;
    const mounts = (await request(enabled.url, 'GET', 'sys/mounts', { token })).body.data;
    const auths = (await request(enabled.url, 'GET', 'sys/auth', { token })).body.data;
    for (const tag of ['root', 'uuid', 'accessor', 'storage']) {
      const res = await request(enabled.url, 'GET', `sys/internal/inspect/router/${tag}`, { token });
      assert.equal(res.status, 200, `${tag}: ${JSON.stringify(res.body)}`);
      const records = res.body.data[tag] as RouterRecord[];
      const kv = records.find((r) => r.mount_path === 'inspected/');
      assert.deepEqual(kv && { ...kv }, {
        mount_path: 'inspected/',
        mount_namespace: '',
        mount_type: 'kv',
        mount_class: 'secret',
        uuid: mounts['inspected/'].uuid,
        accessor: mounts['inspected/'].accessor,
        storage_prefix: `logical/${mounts['inspected/'].uuid}/`,
        tainted: false,
      });
      const up = records.find((r) => r.mount_path === 'up/');
      assert.equal(up?.mount_class, 'auth');
      assert.equal(up?.accessor, auths['up/'].accessor);
      assert.equal(up?.storage_prefix, `auth/${auths['up/'].uuid}/`);
      assert.ok(records.some((r) => r.mount_type === 'system'));
      const keyOf = (r: RouterRecord) =>
        tag === 'uuid' ? r.uuid : tag === 'accessor' ? r.accessor : tag === 'storage' ? r.storage_prefix : '';
      if (tag !== 'root') {
        const keys = records.map(keyOf);
        assert.deepEqual(keys, [...keys].sort(), `${tag} is ordered by its key`);
      }
    }
  });

  it('answers 404 for an unknown tag', async () => {
    const res = await request(enabled.url, 'GET', 'sys/internal/inspect/router/bogus', { token: enabled.rootToken });
    assert.equal(res.status, 404);
  });

  it('needs sudo: read alone is refused, read with sudo is served', async () => {
    const token = enabled.rootToken;
    const make = async (name: string, caps: string) => {
      await request(enabled.url, 'PUT', `sys/policies/acl/${name}`, {
        token,
        body: { policy: `path "sys/internal/inspect/router/*" { capabilities = [${caps}] }` },
      });
      const created = await request(enabled.url, 'POST', 'auth/token/create', {
        token,
        body: { policies: [name], no_default_policy: true },
      });
      return created.body.auth.client_token as string;
    };
    const readOnly = await make('inspect-read', '"read"');
    const sudo = await make('inspect-sudo', '"read", "sudo"');
    const path = 'sys/internal/inspect/router/root';
    assert.equal((await request(enabled.url, 'GET', path, { token: readOnly })).status, 403);
    assert.equal((await request(enabled.url, 'GET', path, { token: sudo })).status, 200);
  });

  it('answers 404 when introspection_endpoint is not set', async () => {
    const res = await request(disabled.url, 'GET', 'sys/internal/inspect/router/root', { token: disabled.rootToken });
    assert.equal(res.status, 404);
  });
});
