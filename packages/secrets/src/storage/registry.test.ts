import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { InmemStorage } from './inmem/index.js';
import { describeStorage, openStorage, parseStorageBlock, storageType } from './registry.js';
import { SqliteStorage } from './sqlite/index.js';

describe('storage registry', () => {
  it('opens the backend a configuration block names', async () => {
    assert.ok((await openStorage(parseStorageBlock('inmem', {}))).backend instanceof InmemStorage);
    const dir = mkdtempSync(join(tmpdir(), 'ward-registry-'));
    try {
      const config = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
      const opened = await openStorage(config);
      assert.ok(opened.backend instanceof SqliteStorage);
      assert.equal(opened.ha, undefined);
      assert.equal(describeStorage(config), `sqlite (path: ${join(dir, 'ward.db')})`);
      await opened.backend.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives HA only when the block enables it', async () => {
    const plain = await openStorage(parseStorageBlock('etcd', { address: 'http://127.0.0.1:1' }));
    assert.equal(plain.ha, undefined);
    await plain.backend.close();
    const shared = await openStorage(parseStorageBlock('etcd', { address: 'http://127.0.0.1:1', ha_enabled: 'true' }));
    assert.ok(shared.ha);
    await shared.backend.close();
  });

  it('refuses an unknown type, a missing required key and a bad value', () => {
    assert.throws(() => storageType('consul'), InvalidRequestError);
    assert.throws(() => parseStorageBlock('sqlite', {}), InvalidRequestError);
    assert.throws(() => parseStorageBlock('etcd', { lock_ttl: '1s' }), InvalidRequestError);
  });
});
