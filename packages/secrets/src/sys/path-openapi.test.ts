import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import type { OpenApiRoute } from '../core/system-core.js';
import { createKvBackend } from '../engines/kv/backend.js';
import { createBackend } from '../framework/index.js';
import { assertGolden, assertValidOpenapi, createToyTotpBackend } from '../framework/openapi.testing.js';
import type { LogicalResponse } from '../logical/response.js';
import { InmemStorage } from '../storage/index.js';
import { pathInternalSpecsOpenapi } from './path-openapi.js';

function kvV2() {
  return createKvBackend({
    storage: new InmemStorage(),
    logger: silentLogger,
    clock: new FakeClock(0),
    random: new SeededRandom(1),
    options: { version: '2' },
    system: {
      defaultLeaseTtlSeconds: () => 3600,
      maxLeaseTtlSeconds: () => 7200,
      generatePasswordFromPolicy: () => Promise.reject(new Error('no password policies here')),
    },
  });
}

/** A `sys/` holding only the OpenAPI path, over the given mounts (itself included, as on a server). */
function setup(mounts: OpenApiRoute[]) {
  const routes: OpenApiRoute[] = [...mounts];
  const sys = createBackend({
    type: 'system',
    storage: new InmemStorage(),
    help: 'System endpoints.',
    paths: [pathInternalSpecsOpenapi({ routes: () => routes, version: '0.0.0-test' })],
    specialPaths: { unauthenticated: ['internal/specs/openapi'] },
  });
  routes.push({ mountPoint: 'sys/', type: 'system', backend: sys });
  return async (data: Record<string, unknown> = {}) => {
    const res: LogicalResponse | undefined = await sys.handle({
      id: 'req',
      operation: 'read',
      path: 'internal/specs/openapi',
      data,
      mountPoint: 'sys/',
      remoteAddress: '127.0.0.1',
    });
    assert.equal(res?.raw?.status, 200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON document
    return res?.raw?.body as any;
  };
}

const MOUNTS = (): OpenApiRoute[] => [
  { mountPoint: 'secret/', type: 'kv', backend: kvV2() },
  { mountPoint: 'totp/', type: 'totp', backend: createToyTotpBackend() },
  { mountPoint: 'auth/my-totp/', type: 'totp', backend: createToyTotpBackend() },
];

describe('sys/internal/specs/openapi', () => {
  it('documents every mount with its full paths', async () => {
    const doc = await setup(MOUNTS())();
    await assertValidOpenapi(doc);
    const paths = Object.keys(doc.paths);
    for (const p of ['/secret/data/{path}', '/secret/metadata/', '/totp/keys/{name}', '/auth/my-totp/keys/']) {
      assert.ok(paths.includes(p), `${p} in ${paths.join(' ')}`);
    }
    assert.equal(doc.paths['/sys/internal/specs/openapi'].get.tags[0], 'system');
    assert.equal(doc.paths['/sys/internal/specs/openapi']['x-vault-unauthenticated'], true);
    assert.deepEqual(doc.paths['/auth/my-totp/keys/'].get.tags, ['auth']);
    // Mounts go in mount-point order; a second mount of a type is named after its mount, so
    // operationIds stay unique.
    assert.equal(doc.paths['/auth/my-totp/keys/'].get.operationId, 'totp-list-keys');
    assert.equal(doc.paths['/totp/keys/'].get.operationId, 'totp-totp-list-keys');
  });

  it('turns non-singleton mounts into path parameters with generic_mount_paths (golden file)', async () => {
    const doc = await setup(MOUNTS())({ generic_mount_paths: 'true' });
    await assertValidOpenapi(doc);
    assertGolden('whole-api-generic', doc);
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes('/{secret_mount_path}/data/{path}'));
    assert.ok(paths.includes('/auth/{my_totp_mount_path}/code/{name}'));
    assert.ok(paths.includes('/sys/internal/specs/openapi'), 'sys/ is a singleton and keeps its path');
    assert.deepEqual(doc.paths['/{secret_mount_path}/config'].parameters, [
      {
        name: 'secret_mount_path',
        description: 'Path that the backend was mounted at',
        in: 'path',
        schema: { type: 'string', default: 'secret' },
        required: true,
      },
    ]);
  });
});
