import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testBackend } from '../../framework/testing.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { InmemStorage } from '../../storage/index.js';
import { createKvBackend } from './backend.js';

/** `storage` as a performance standby's barrier sees it: reads go through, every write is refused. */
function readOnly(storage: Storage): Storage {
  const refuse = async (): Promise<never> => {
    throw new Error('cannot write to a read-only storage');
  };
  return {
    get: (key) => storage.get(key),
    list: (prefix) => storage.list(prefix),
    put: refuse,
    delete: refuse,
    transaction: refuse,
  };
}

const upgrading = (err: unknown) =>
  err instanceof InvalidRequestError && /Upgrading from non-versioned to versioned data/.test(err.message);

describe('KV upgrade on a server that cannot write (a performance standby)', () => {
  it('answers 400 while version-1 keys are left, and serves them as version 2 once the active server moved them', async () => {
    const shared = new InmemStorage();
    const v1 = await testBackend(createKvBackend, { storage: shared });
    await v1.write('app/db', { password: 's3cret' });
    await v1.write('top', { k: 'v' });

    const standby = await testBackend((ctx) => createKvBackend({ ...ctx, storage: readOnly(shared) }), {
      options: { version: '2' },
    });
    await assert.rejects(standby.read('data/top'), upgrading);
    await assert.rejects(standby.read('data/app/db'), upgrading, 'still upgrading: the standby cannot move keys');

    // The active server's backend over the same storage moves every key.
    const active = await testBackend(createKvBackend, { storage: shared, options: { version: '2' } });
    for (;;) {
      const read = await active.read('data/top').catch((err) => (upgrading(err) ? undefined : Promise.reject(err)));
      if (read) break;
      await new Promise((r) => setImmediate(r));
    }
    const db = (await standby.read('data/app/db'))?.data as { data: unknown; metadata: { version: number } };
    assert.deepEqual(db.data, { password: 's3cret' });
    assert.equal(db.metadata.version, 1);
  });
});
