import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { createStorage, InmemStorage, SqliteStorage } from './index.js';

describe('createStorage', () => {
  it('builds the backend a configuration names', async () => {
    assert.ok(createStorage('inmem') instanceof InmemStorage);
    const dir = mkdtempSync(join(tmpdir(), 'ward-create-'));
    try {
      const s = createStorage('sqlite', { path: join(dir, 'ward.db') });
      assert.ok(s instanceof SqliteStorage);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown type and a sqlite store without a path', () => {
    assert.throws(() => createStorage('consul'), InvalidRequestError);
    assert.throws(() => createStorage('sqlite'), InvalidRequestError);
  });
});
