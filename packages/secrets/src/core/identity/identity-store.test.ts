import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import { IdentityStore } from './identity-store.js';

/** A plain in-memory `Storage` for the store's records. */
function memoryStorage(): Storage {
  const data = new Map<string, Uint8Array>();
  return {
    get: async (k) => data.get(k),
    put: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
    list: async (prefix) => [...data.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)),
    transaction: async () => undefined,
  };
}

describe('IdentityStore', () => {
  const open = async (storage = memoryStorage()) => {
    const store = new IdentityStore({
      storage,
      clock: new FakeClock(0),
      random: new SeededRandom(1),
      namespaceId: 'root',
    });
    await store.load();
    return store;
  };

  it('finds or creates the entity of a login alias, case-insensitively, and reloads it', async () => {
    const storage = memoryStorage();
    const store = await open(storage);
    const first = await store.loginEntity('auth_userpass_1', 'Alice');
    assert.equal((await store.loginEntity('auth_userpass_1', 'alice')).id, first.id);
    assert.notEqual((await store.loginEntity('auth_userpass_2', 'alice')).id, first.id);
    const reopened = await open(storage);
    assert.equal(reopened.aliasByFactors('auth_userpass_1', 'ALICE')?.entity.id, first.id);
  });

  it('computes inherited groups and identity policies through nested groups', async () => {
    const store = await open();
    const e = await store.loginEntity('acc', 'bob');
    const base = {
      type: 'internal' as const,
      namespace_id: 'root',
      metadata: null,
      creation_time_ms: 0,
      last_update_time_ms: 0,
    };
    await store.saveGroup({
      ...base,
      id: 'g1',
      name: 'g1',
      policies: ['p1'],
      member_entity_ids: [e.id],
      member_group_ids: [],
    });
    await store.saveGroup({
      ...base,
      id: 'g2',
      name: 'g2',
      policies: ['p2'],
      member_entity_ids: [],
      member_group_ids: ['g1'],
    });
    await store.saveGroup({
      ...base,
      id: 'g3',
      name: 'g3',
      policies: ['p3'],
      member_entity_ids: [],
      member_group_ids: ['g2'],
    });
    assert.deepEqual(store.groupsOf(e.id), { direct: ['g1'], inherited: ['g2', 'g3'] });
    assert.deepEqual(store.identityPolicies({ ...e, policies: ['own'] }), ['own', 'p1', 'p2', 'p3']);
    await store.deleteEntity(e.id);
    assert.deepEqual(store.group('g1')?.member_entity_ids, []);
  });

  it('resolves a merged-away id to the entity that absorbed it', async () => {
    const store = await open();
    const e = store.newEntity({ merged_entity_ids: ['old-id'] });
    await store.saveEntity(e);
    assert.equal(store.resolveEntity('old-id')?.id, e.id);
    assert.equal(store.resolveEntity('unknown'), undefined);
  });
});
