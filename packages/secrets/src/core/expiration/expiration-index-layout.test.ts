import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeJson, type Storage } from '../../logical/storage.js';
import { dumpStorage } from '../tokens/testing.js';
import { createTestManager, RecordingRevoker } from './testing.js';

// Issue 12 point 6: storage keys are not encrypted, so the by-token index (`sys/expire/token/…`)
// must name tokens by the salted digest of their accessor, not by the accessor.

const ACCESSORS = ['accParentAAAAAAAAAAAAAAA', 'accChildBBBBBBBBBBBBBBBBB', 'accOtherCCCCCCCCCCCCCCCCC'];

async function managerWithLeases() {
  const t = await createTestManager();
  const [parent, child, other] = ACCESSORS as [string, string, string];
  const register = (path: string, accessor: string, kind: 'token' | 'secret' = 'secret') =>
    t.manager.register({ path, ttlSeconds: 600, renewable: true, kind, tokenAccessor: accessor });
  const ids = {
    parentToken: await register('auth/token/create', parent, 'token'),
    parentSecrets: [await register('db/creds/ro', parent), await register('aws/creds/ro', parent)],
    childSecret: await register('db/creds/rw', child),
    otherSecret: await register('db/creds/ro', other),
  };
  return { ...t, ids };
}

async function keys(storage: Storage): Promise<string[]> {
  return (await dumpStorage(storage)).map(([key]) => key);
}

function assertNoAccessorIn(all: string[]): void {
  for (const accessor of ACCESSORS) {
    const leaked = all.filter((k) => k.includes(accessor));
    assert.deepEqual(leaked, [], `${accessor} appears in storage keys`);
  }
}

/** Rewrites the first `count` index entries (all by default) as servers before layout 2 wrote them. */
async function toOldLayout(storage: Storage, count = Number.POSITIVE_INFINITY): Promise<void> {
  await storage.delete('index-layout');
  const leases = new Map<string, string>();
  for (const [, value] of await dumpStorage(storage, 'id/')) {
    const lease = JSON.parse(Buffer.from(value, 'latin1').toString('utf8'));
    leases.set(lease.lease_id, lease.token_accessor);
  }
  let done = 0;
  for (const [key, value] of await dumpStorage(storage, 'token/')) {
    if (done++ >= count) break;
    const leaseId = JSON.parse(Buffer.from(value, 'latin1').toString('utf8')) as string;
    const hash = key.slice(key.lastIndexOf('/') + 1);
    await storage.delete(key);
    await storage.put(`token/${encodeURIComponent(leases.get(leaseId) ?? '')}/${hash}`, encodeJson(leaseId));
  }
}

describe('expiration by-token index keys', () => {
  it('hold no accessor', async () => {
    const t = await managerWithLeases();
    assertNoAccessorIn(await keys(t.storage));
  });

  for (const [name, count] of [
    ['fully', Number.POSITIVE_INFINITY],
    ['partly (a migration cut short)', 2],
  ] as const) {
    it(`migrates at restore a store written ${name} with accessors in its keys; revoking a token still revokes its leases`, async () => {
      const first = await managerWithLeases();
      await first.manager.stop();
      await toOldLayout(first.storage, count);
      const oldKeys = (await keys(first.storage)).filter((k) => ACCESSORS.some((a) => k.includes(a)));
      assert.equal(oldKeys.length, Math.min(count, 5), 'old layout built');

      const revoker = new RecordingRevoker(first.clock);
      const second = await createTestManager({ storage: first.storage, clock: first.clock, revoker });
      assertNoAccessorIn(await keys(first.storage));
      // Migrating again (the next unseal) changes nothing.
      const before = await keys(first.storage);
      await second.manager.restore();
      assert.deepEqual(await keys(first.storage), before);

      await second.manager.revokeByToken(ACCESSORS[0] as string);
      assert.deepEqual([...revoker.revokedIds].sort(), [...first.ids.parentSecrets].sort());
      assert.equal(second.manager.lookup(first.ids.parentToken), undefined, 'the token lease went too');
      await second.manager.revokeByToken(ACCESSORS[1] as string);
      assert.deepEqual(revoker.revokedIds.slice(2), [first.ids.childSecret]);
      assert.ok(second.manager.lookup(first.ids.otherSecret), 'another token’s lease stays');
      assert.equal((await keys(first.storage)).filter((k) => k.startsWith('token/')).length, 1);
    });
  }

  it('drops at migration an old index entry whose lease is gone', async () => {
    const first = await managerWithLeases();
    await first.manager.stop();
    await toOldLayout(first.storage);
    await first.storage.put(`token/${ACCESSORS[2]}/0000`, encodeJson('db/creds/gone/x'));
    await createTestManager({ storage: first.storage, clock: first.clock });
    assertNoAccessorIn(await keys(first.storage));
  });
});
