import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import type { SystemCore } from '../core/system-core.js';
import { createKvBackend } from '../engines/kv/backend.js';
import { InmemStorage } from '../storage/index.js';
import { pathMount, pathMountList } from '../sys/path-mounts.js';
import { pathTune } from '../sys/path-tune.js';
import { type Backend, type BackendContext, createBackend } from './backend.js';
import { openapiDocument, openapiForBackend } from './openapi.js';
import { assertGolden, assertValidOpenapi, createToyTotpBackend } from './openapi.testing.js';

const VERSION = '0.0.0-test';

function context(options: Record<string, string> = {}): BackendContext {
  return {
    storage: new InmemStorage(),
    logger: silentLogger,
    clock: new FakeClock(0),
    random: new SeededRandom(1),
    options,
    system: {
      defaultLeaseTtlSeconds: () => 3600,
      maxLeaseTtlSeconds: () => 7200,
      generatePasswordFromPolicy: () => Promise.reject(new Error('no password policies here')),
    },
  };
}

/**
 * The system backend's mounts paths, in its order (`tune` first). The path builders only
 * close over the core, so a stub serves; the rest of `sys/` changes too often to pin here.
 */
function systemMountsBackend(): Backend {
  const sys = {} as SystemCore;
  return createBackend({
    type: 'system',
    storage: new InmemStorage(),
    help: 'System endpoints used for control, policy and debugging.',
    paths: [pathMountList(sys, 'mounts'), pathTune(sys, 'mounts'), pathMount(sys, 'mounts')],
  });
}

const kvV2 = () => createKvBackend(context({ version: '2' }));
const pathsOf = (backend: Backend, relativePrefix: string) =>
  Object.keys(openapiForBackend(backend, { mountPoint: 'secret/', relativePrefix }).paths);

describe('openapiForBackend', () => {
  it('documents the KV v2 engine (golden file)', async () => {
    const doc = openapiDocument(VERSION, openapiForBackend(kvV2(), { mountPoint: 'secret/', relativePrefix: '' }));
    await assertValidOpenapi(doc);
    assertGolden('kv-v2', doc);
    const data = doc.paths['/data/{path}'];
    assert.deepEqual(Object.keys(data ?? {}), [
      'description',
      'parameters',
      'x-vault-create-supported',
      'get',
      'post',
      'patch',
      'delete',
    ]);
    assert.equal(data?.post?.operationId, 'kv-create-data-path');
    assert.deepEqual(data?.get?.tags, ['secrets']);
    assert.deepEqual(Object.keys(data?.patch?.requestBody?.content ?? {}), ['application/merge-patch+json']);
    assert.equal(data?.delete?.responses['204']?.description, 'empty body');
  });

  it("documents the system backend's mounts paths relative to sys/mounts (golden file)", async () => {
    const part = openapiForBackend(systemMountsBackend(), { mountPoint: 'sys/', relativePrefix: 'mounts' });
    const doc = openapiDocument(VERSION, part);
    await assertValidOpenapi(doc);
    assertGolden('sys-mounts', doc);
    assert.deepEqual(Object.keys(doc.paths), ['/', '/{path}', '/{path}/tune']);
    assert.equal(doc.paths['/{path}']?.post?.operationId, 'system-write-mounts-path');
    assert.deepEqual(doc.paths['/']?.get?.tags, ['system']);
  });

  it('documents a TOTP-like toy engine with every extension (golden file)', async () => {
    const doc = openapiDocument(
      VERSION,
      openapiForBackend(createToyTotpBackend(), { mountPoint: 'totp/', relativePrefix: '' }),
    );
    await assertValidOpenapi(doc);
    assertGolden('toy-totp', doc);
    const keys = doc.paths['/keys/{name}'];
    assert.equal(keys?.['x-vault-sudo'], true);
    assert.equal(keys?.['x-vault-create-supported'], true);
    assert.equal(keys?.description, 'Manage the keys that generate codes.');
    assert.equal(keys?.post?.summary, 'Update a key.', 'update is documented when create falls back to it');
    assert.equal(doc.paths['/code/{name}']?.['x-vault-unauthenticated'], true);
    const list = doc.paths['/keys/']?.get;
    assert.equal(list?.operationId, 'totp-list-keys');
    assert.deepEqual(list?.parameters, [
      {
        name: 'list',
        description: 'Must be set to `true`',
        in: 'query',
        schema: { type: 'string', enum: ['true'] },
        required: true,
      },
    ]);
    const body = doc.components.schemas.TotpWriteKeysNameRequest;
    assert.deepEqual(body?.required, ['key']);
    assert.deepEqual(body?.properties?.key?.['x-vault-displayAttrs'], { sensitive: true }, 'a secret says so');
    assert.equal(body?.properties?.period?.['x-vault-displayAttrs'], undefined);
    assert.deepEqual(body?.properties?.period, {
      type: 'string',
      format: 'duration',
      description: 'Seconds a code is valid.',
      default: '30',
    });
  });

  it('gives paths relative to the queried path, for it and what is below it', () => {
    const kv = kvV2();
    assert.deepEqual(pathsOf(kv, 'data/x'), ['/']);
    assert.deepEqual(pathsOf(kv, 'data/x/y'), ['/']);
    assert.deepEqual(pathsOf(kv, 'data'), ['/{path}']);
    assert.deepEqual(pathsOf(kv, 'data/'), ['/{path}']);
    assert.deepEqual(pathsOf(kv, 'metadata/'), ['/', '/{path}']);
    assert.deepEqual(pathsOf(kv, 'nothing-here'), []);
    assert.ok(pathsOf(kv, '').includes('/config'));
  });

  it('expands an optional capture into the bare path and the parameterised one', async () => {
    const kvV1 = createKvBackend(context());
    const doc = openapiDocument(VERSION, openapiForBackend(kvV1, { mountPoint: 'kv/', relativePrefix: '' }));
    await assertValidOpenapi(doc);
    assert.deepEqual(Object.keys(doc.paths), ['/', '/{path}']);
    assert.equal(doc.paths['/']?.parameters, undefined);
  });

  it('keeps operationIds unique across parts that share a set', () => {
    const usedIds = new Set<string>();
    const first = openapiForBackend(kvV2(), { mountPoint: 'a/', relativePrefix: '', usedIds });
    const second = openapiForBackend(kvV2(), { mountPoint: 'b/', relativePrefix: '', usedIds });
    assert.equal(first.paths['/config']?.get?.operationId, 'kv-read-config');
    assert.equal(second.paths['/config']?.get?.operationId, 'kv-read-config-2');
    assert.ok('KvWriteConfig2Request' in second.schemas);
  });
});
