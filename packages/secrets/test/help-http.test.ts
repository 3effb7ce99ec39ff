import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertValidOpenapi } from '../src/framework/openapi.testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 4, point 1: `?help=1` and `sys/internal/specs/openapi` over real HTTP
// (spec 000 "Help response"; secrets-core reference §1.7 and §11).

describe('?help=1 over HTTP', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('answers a KV v2 data path with raw help and an OpenAPI document relative to it', async () => {
    const r = await t.request('GET', 'secret/data/foo?help=1');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ['help', 'openapi', 'see_also']);
    assert.equal(r.body.see_also, null);
    assert.match(r.body.help, /Matching Route: \/data\/\{path\}/);
    assert.match(r.body.help, /## PARAMETERS/);
    assert.match(r.body.help, /## DESCRIPTION/);
    const doc = r.body.openapi;
    assert.equal(doc.openapi, '3.0.2');
    assert.equal(doc.info.version, t.server.core.version);
    assert.deepEqual(Object.keys(doc.paths), ['/']);
    const item = doc.paths['/'];
    assert.equal(item['x-vault-create-supported'], true);
    assert.deepEqual(
      Object.keys(item)
        .filter((k) => ['get', 'post', 'patch', 'delete'].includes(k))
        .sort(),
      ['delete', 'get', 'patch', 'post'],
    );
    assert.ok(doc.components.schemas[item.post.requestBody.content['application/json'].schema.$ref.split('/').pop()]);
    await assertValidOpenapi(doc);
  });

  it('documents the whole mount from its root, relative to the mount', async () => {
    const r = await t.request('GET', 'secret/?help=1');
    assert.equal(r.status, 200);
    assert.match(r.body.help, /^## DESCRIPTION\n/);
    for (const p of ['/config', '/data/{path}', '/metadata/{path}']) assert.ok(p in r.body.openapi.paths, p);
    await assertValidOpenapi(r.body.openapi);
  });

  it('answers sys/mounts with the mounts paths relative to it', async () => {
    const r = await t.request('GET', 'sys/mounts?help=1');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body.openapi.paths), ['/', '/{path}', '/{path}/tune']);
    assert.deepEqual(r.body.openapi.paths['/'].get.tags, ['system']);
    await assertValidOpenapi(r.body.openapi);
  });

  it('needs a valid token', async () => {
    for (const token of [null, 'not-a-token']) {
      const r = await t.request('GET', 'secret/data/foo?help=1', { token });
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { errors: ['permission denied'] });
    }
  });

  it('is a 404 where no mount or no path serves', async () => {
    assert.equal((await t.request('GET', 'nomount/x?help=1')).status, 404);
    assert.equal((await t.request('GET', 'secret/nothing/here?help=1')).status, 404);
  });
});

// Until the system backend lists `pathInternalSpecsOpenapi` (and `internal/specs/openapi` as
// unauthenticated), these are todo: drop the `{ todo }` options once it does.

describe('sys/internal/specs/openapi over HTTP', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
    // Every engine type, so the validator sees what each one generates.
    for (const [path, body] of [
      ['kv-one', { type: 'kv' }],
      ['team-totp', { type: 'totp' }],
    ] as const) {
      assert.equal((await t.request('POST', `sys/mounts/${path}`, { body })).status, 204);
    }
  });
  after(() => t.stop());

  it('serves the whole API without a token, with full paths', async () => {
    const r = await t.request('GET', 'sys/internal/specs/openapi', { token: null });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.openapi, '3.0.2');
    assert.equal(r.body.request_id, undefined, 'raw body, no envelope');
    for (const p of [
      '/secret/data/{path}',
      '/kv-one/{path}',
      '/team-totp/keys/{name}',
      '/sys/mounts/{path}',
      '/auth/token/create',
    ]) {
      assert.ok(p in r.body.paths, p);
    }
    assert.equal(r.body.paths['/sys/internal/specs/openapi']['x-vault-unauthenticated'], true);
    await assertValidOpenapi(r.body);
  });

  it('replaces non-singleton mount prefixes with parameters for generic_mount_paths=true', async () => {
    const r = await t.request('GET', 'sys/internal/specs/openapi?generic_mount_paths=true', { token: null });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const paths = Object.keys(r.body.paths);
    assert.ok(paths.includes('/{secret_mount_path}/data/{path}'));
    assert.ok(paths.includes('/{team_totp_mount_path}/code/{name}'));
    assert.ok(paths.includes('/sys/mounts/{path}'), 'sys/ is a singleton');
    assert.ok(paths.includes('/auth/token/create'), 'auth/token/ is a singleton');
    assert.ok(!paths.some((p) => p.startsWith('/secret/')));
    await assertValidOpenapi(r.body);
  });
});
