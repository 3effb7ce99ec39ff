import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { decodeJson, encodeJson } from '../../logical/storage.js';
import { createTestTokenStore, dumpStorage, SYSTEM_TTLS } from './testing.js';
import type { TokenEntry } from './token-entry.js';
import { TokenStore } from './token-store.js';

// Issue 12 point 6: storage keys are not encrypted, so they must not hold accessors.
async function storeWithChild() {
  const t = await createTestTokenStore();
  const ctx = { parent: t.root.entry, isSudo: true, mount: SYSTEM_TTLS };
  const parent = await t.store.create({ path: 'auth/token/create', policies: ['a'] }, ctx);
  const child = await t.store.create({ path: 'auth/token/create', policies: ['a'] }, { ...ctx, parent: parent.entry });
  return { ...t, parent, child, accessors: [t.root.entry.accessor, parent.entry.accessor, child.entry.accessor] };
}

describe('token index keys', () => {
  it('hold no accessor in any storage key', async () => {
    const t = await storeWithChild();
    const keys = (await dumpStorage(t.storage)).map(([k]) => k);
    for (const accessor of t.accessors) assert.ok(!keys.some((k) => k.includes(accessor)), `${accessor} in a key`);
    assert.deepEqual((await t.store.listAccessors()).sort(), [...t.accessors].sort());
  });

  it('migrates a store written with accessors in its keys at setup; its tokens still look up by accessor', async () => {
    const t = await storeWithChild();
    // Rewrite the store into the layout older servers wrote: accessor and parent keys in plain text.
    for (const [key] of await dumpStorage(t.storage)) {
      if (key.startsWith('accessor/') || key.startsWith('parent/') || key === 'index-layout') {
        await t.storage.delete(key);
      }
    }
    for (const [key] of await dumpStorage(t.storage, 'id/')) {
      const entry = decodeJson<TokenEntry>((await t.storage.get(key)) as Uint8Array);
      await t.storage.put(`accessor/${entry.accessor}`, encodeJson({ hash: entry.hash }));
      if (entry.parent_accessor)
        await t.storage.put(`parent/${entry.parent_accessor}/${entry.accessor}`, encodeJson({}));
    }
    assert.ok((await dumpStorage(t.storage)).some(([k]) => k === `accessor/${t.child.entry.accessor}`));

    const reopened = new TokenStore({ storage: t.storage, random: new SeededRandom(9), clock: t.clock });
    await reopened.setup();
    const keys = (await dumpStorage(t.storage)).map(([k]) => k);
    for (const accessor of t.accessors) {
      assert.ok(!keys.some((k) => k.includes(accessor)), `${accessor} still in a key`);
      assert.equal((await reopened.lookupAccessor(accessor))?.accessor, accessor);
    }
    assert.deepEqual((await reopened.listAccessors()).sort(), [...t.accessors].sort());
    await reopened.revokeTree(t.parent.entry.accessor);
    assert.equal(await reopened.lookup(t.child.token), undefined, 'the parent link survived the migration');
    assert.ok(await reopened.lookup(t.root.token));
  });
});
