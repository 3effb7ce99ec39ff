import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { createTestTokenStore, dumpStorage, SYSTEM_TTLS } from './testing.js';
import type { TokenEntry } from './token-entry.js';
import { TokenStore } from './token-store.js';

const PATH = 'auth/token/create';

/** Asserts that `promise` rejects with an `InvalidRequestError` carrying exactly `message`. */
async function rejectsWith(promise: Promise<unknown>, message: string) {
  await assert.rejects(promise, (err: unknown) => err instanceof InvalidRequestError && err.message === message);
}

describe('TokenStore.create', () => {
  it('issues hvs. tokens with an accessor, linked to their parent, sudo callers getting default', async () => {
    const { store, root } = await createTestTokenStore();
    const { token, entry } = await store.create(
      { path: PATH, policies: ['Dev', 'ops', 'dev'] },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    assert.match(token, /^hvs\.[0-9A-Za-z]{24}$/);
    assert.match(entry.accessor, /^[0-9A-Za-z]{24}$/);
    assert.deepEqual(entry.policies, ['default', 'dev', 'ops']);
    assert.equal(entry.parent_accessor, root.entry.accessor);
    assert.equal(entry.orphan, false);
    assert.equal(entry.display_name, 'token');
    assert.equal((await store.lookup(token))?.accessor, entry.accessor);
  });

  it('keeps a caller without sudo to a subset of its parent’s policies', async () => {
    const { store, root } = await createTestTokenStore();
    const parent = (
      await store.create(
        { path: PATH, policies: ['dev', 'ops'] },
        { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
      )
    ).entry;
    const ctx = { parent, isSudo: false, mount: SYSTEM_TTLS };
    await rejectsWith(
      store.create({ path: PATH, policies: ['admin'] }, ctx),
      'child policies must be subset of parent',
    );
    assert.deepEqual((await store.create({ path: PATH, policies: ['dev'] }, ctx)).entry.policies, ['default', 'dev']);
    assert.deepEqual((await store.create({ path: PATH }, ctx)).entry.policies, ['default', 'dev', 'ops']);
    const noDefault = await store.create({ path: PATH, policies: ['ops'], noDefaultPolicy: true }, ctx);
    assert.deepEqual(noDefault.entry.policies, ['ops']);
  });

  it('refuses what needs sudo or root to callers without them', async () => {
    const { store, root } = await createTestTokenStore();
    const sudoParent = (
      await store.create({ path: PATH, policies: ['admin'] }, { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS })
    ).entry;
    const plain = { parent: sudoParent, isSudo: false, mount: SYSTEM_TTLS };
    await rejectsWith(
      store.create({ path: PATH, id: 'custom' }, plain),
      'root or sudo privileges required to specify token id',
    );
    await rejectsWith(
      store.create({ path: PATH, noParent: true }, plain),
      'root or sudo privileges required to create orphan token',
    );
    await rejectsWith(
      store.create({ path: PATH, period: 60 }, plain),
      'root or sudo privileges required to create periodic token',
    );
    await rejectsWith(
      store.create({ path: PATH, policies: ['root'] }, { ...plain, isSudo: true }),
      'root tokens may not be created without parent token being root',
    );
    await rejectsWith(
      store.create({ path: PATH, policies: ['response-wrapping'] }, { ...plain, isSudo: true }),
      'cannot assign policy "response-wrapping"',
    );
    const orphan = await store.create({ path: 'auth/token/create-orphan', orphan: true }, plain);
    assert.equal(orphan.entry.orphan, true);
    assert.equal(orphan.entry.parent_accessor, '');
  });

  it('takes a custom id from sudo callers only once, and refuses reserved forms', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const { token } = await store.create({ path: PATH, id: 'my-token' }, ctx);
    assert.equal(token, 'my-token');
    await rejectsWith(store.create({ path: PATH, id: 'my-token' }, ctx), 'cannot create a token with a duplicate ID');
    await rejectsWith(
      store.create({ path: PATH, id: 'hvs.abc' }, ctx),
      "custom token ID cannot have the 'hvs.' prefix",
    );
    await rejectsWith(store.create({ path: PATH, id: 'a.b' }, ctx), "custom token ID cannot have a '.' in the value");
  });

  it('refuses children of batch and restricted-use tokens, and negative uses', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const batch = await store.create({ path: PATH, type: 'batch', policies: ['dev'] }, ctx);
    const limited = await store.create({ path: PATH, numUses: 3 }, ctx);
    await rejectsWith(
      store.create({ path: PATH }, { ...ctx, parent: batch.entry }),
      'batch tokens cannot create more tokens',
    );
    await rejectsWith(
      store.create({ path: PATH }, { ...ctx, parent: limited.entry }),
      'restricted use token cannot generate child tokens',
    );
    await rejectsWith(store.create({ path: PATH, numUses: -1 }, ctx), 'number of uses cannot be negative');
  });

  it('sanitises the display name and keeps meta', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const { entry } = await store.create({ path: PATH, displayName: 'web app!!', meta: { team: 'a' } }, ctx);
    assert.equal(entry.display_name, 'token-web-app');
    assert.deepEqual(entry.meta, { team: 'a' });
  });

  it('does not let an expiring root token create a non-expiring one', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const expiringRoot = await store.create({ path: PATH, policies: ['root'], ttl: 3600 }, ctx);
    assert.equal(expiringRoot.entry.ttl, 3600);
    await rejectsWith(
      store.create({ path: PATH, policies: ['root'] }, { ...ctx, parent: expiringRoot.entry }),
      'expiring root tokens cannot create non-expiring root tokens',
    );
    const forever = await store.create({ path: PATH, policies: ['root'] }, ctx);
    assert.equal(forever.entry.expire_time_ms, 0);
    assert.equal(forever.entry.renewable, false);
  });
});

describe('TokenStore.lookup and useToken', () => {
  it('refuses a token once it has expired', async () => {
    const { store, root, clock } = await createTestTokenStore();
    const { token } = await store.create(
      { path: PATH, ttl: 60 },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    clock.advance(59_999);
    assert.ok(await store.lookup(token));
    clock.advance(1);
    assert.equal(await store.lookup(token), undefined);
    assert.equal(await store.lookup('hvs.unknownunknownunknown1'), undefined);
    assert.equal(await store.lookup(''), undefined);
  });

  it('counts uses down, flags the last one, and refuses the token afterwards until revoked', async () => {
    const { store, root } = await createTestTokenStore();
    const { token, entry } = await store.create(
      { path: PATH, numUses: 2 },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    const first = await store.useToken(entry);
    assert.deepEqual([first.entry.num_uses, first.isLastUse], [1, false]);
    const second = await store.useToken((await store.lookup(token)) as TokenEntry);
    assert.equal(second.isLastUse, true);
    assert.equal(await store.lookup(token), undefined);
    assert.ok(await store.lookup(token, { includeExhausted: true }), 'the last request may still see its token');
    await assert.rejects(async () => store.useToken(second.entry), PermissionDeniedError);
    await store.revokeTree(entry.accessor);
    assert.equal(await store.lookup(token, { includeExhausted: true }), undefined);
  });

  it('leaves unlimited tokens untouched', async () => {
    const { store, root } = await createTestTokenStore();
    const result = await store.useToken(root.entry);
    assert.deepEqual(result, { entry: root.entry, isLastUse: false });
  });

  it('finds tokens by accessor and never by text it does not hash', async () => {
    const { store, root } = await createTestTokenStore();
    const { entry } = await store.create({ path: PATH }, { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS });
    assert.equal((await store.lookupAccessor(entry.accessor))?.hash, entry.hash);
    assert.equal(await store.lookupAccessor('nope'), undefined);
    assert.equal(await store.lookupAccessor('../id'), undefined);
    assert.ok((await store.listAccessors()).includes(entry.accessor));
  });
});

describe('TokenStore revocation', () => {
  async function tree() {
    const t = await createTestTokenStore();
    const ctx = { isSudo: true, mount: SYSTEM_TTLS };
    const a = await t.store.create({ path: PATH }, { ...ctx, parent: t.root.entry });
    const b = await t.store.create({ path: PATH }, { ...ctx, parent: a.entry });
    const c = await t.store.create({ path: PATH }, { ...ctx, parent: a.entry });
    const d = await t.store.create({ path: PATH }, { ...ctx, parent: b.entry });
    return { ...t, a, b, c, d };
  }

  it('revokes a token and its descendants, children first, calling onRevoke for each', async () => {
    const revoked: string[] = [];
    const t = await tree();
    const store = new TokenStore({
      storage: t.storage,
      random: new SeededRandom(2),
      clock: t.clock,
      hooks: { onRevoke: async (e) => void revoked.push(e.accessor) },
    });
    await store.setup();
    await store.revoke(t.a.token);
    for (const x of [t.a, t.b, t.c, t.d]) assert.equal(await store.lookup(x.token), undefined);
    assert.ok(await store.lookup(t.root.token));
    assert.ok(revoked.indexOf(t.d.entry.accessor) < revoked.indexOf(t.b.entry.accessor));
    assert.equal(revoked.at(-1), t.a.entry.accessor);
    assert.equal(revoked.length, 4);
    assert.deepEqual(
      (await dumpStorage(t.storage, 'parent/')).map(([k]) => k),
      [],
      'no parent links are left behind',
    );
  });

  it('revoke-orphan keeps the children, as orphans that no longer die with the old tree', async () => {
    const t = await tree();
    await t.store.revokeOrphan(t.a.token);
    assert.equal(await t.store.lookup(t.a.token), undefined);
    const b = await t.store.lookup(t.b.token);
    assert.deepEqual([b?.orphan, b?.parent_accessor], [true, '']);
    await t.store.revokeTree(t.root.entry.accessor);
    assert.ok(await t.store.lookup(t.b.token));
    await t.store.revokeTree(t.b.entry.accessor);
    assert.equal(await t.store.lookup(t.d.token), undefined);
  });

  it('ignores unknown tokens and accessors', async () => {
    const { store } = await createTestTokenStore();
    await store.revoke('hvs.nothing');
    await store.revokeTree('nothing');
    await store.revokeOrphan('hvs.nothing');
  });
});

describe('TokenStore storage', () => {
  it('never stores token text, only its HMAC', async () => {
    const { store, root, storage } = await createTestTokenStore();
    const child = await store.create({ path: PATH }, { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS });
    const custom = await store.create(
      { path: PATH, id: 'custom-secret-id' },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    const dump = await dumpStorage(storage);
    for (const token of [root.token, child.token, custom.token]) {
      for (const [key, value] of dump) {
        assert.ok(!key.includes(token) && !value.includes(token), `token text found at ${key}`);
      }
    }
    assert.ok(dump.some(([key]) => key === `id/${child.entry.hash}`));
    assert.match(child.entry.hash, /^[0-9a-f]{64}$/);
  });

  it('does not cache an entry read while its revocation committed', async () => {
    const { store: first, root, storage, clock } = await createTestTokenStore();
    const { token, entry } = await first.create(
      { path: PATH },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let isGated = true;
    const slow = {
      ...storage,
      get: async (key: string) => {
        const value = await storage.get(key);
        if (isGated && key.startsWith('id/')) {
          isGated = false;
          await gate;
        }
        return value;
      },
      put: storage.put.bind(storage),
      delete: storage.delete.bind(storage),
      list: storage.list.bind(storage),
      transaction: storage.transaction.bind(storage),
    };
    const store = new TokenStore({ storage: slow, random: new SeededRandom(4), clock });
    await store.setup();
    const racing = store.lookup(token);
    await store.revokeTree(entry.accessor);
    release();
    await racing;
    assert.equal(await store.lookup(token), undefined);
  });

  it('refuses a token served from its caches once it is revoked, or its last use spent', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const revoked = await store.create({ path: PATH }, ctx);
    assert.ok(await store.lookup(revoked.token)); // cached now, by text and by digest
    await store.revoke(revoked.token);
    assert.equal(await store.lookup(revoked.token), undefined);
    const once = await store.create({ path: PATH, numUses: 1 }, ctx);
    const entry = await store.lookup(once.token);
    assert.ok(entry);
    assert.equal((await store.useToken(entry)).isLastUse, true);
    assert.equal(await store.lookup(once.token), undefined);
  });

  it('sees a token revoked by another server once that key is invalidated', async () => {
    const { store, root, storage } = await createTestTokenStore();
    const { token, entry } = await store.create(
      { path: PATH },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    assert.ok(await store.lookup(token));
    // Another server sharing the storage deletes the entry; only its change feed can tell us.
    await storage.delete(`id/${entry.hash}`);
    store.invalidate(`id/${entry.hash}`);
    assert.equal(await store.lookup(token), undefined);
  });

  it('forgets the digests of token texts with the salt', async () => {
    const { store, root, storage, random } = await createTestTokenStore();
    const { token } = await store.create({ path: PATH }, { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS });
    assert.ok(await store.lookup(token));
    // A restored snapshot of another server brings another salt: the old digest names nothing there.
    store.reset();
    await storage.put('salt', random.bytes(32));
    await store.setup();
    assert.equal(await store.lookup(token), undefined);
  });

  it('keeps tokens valid across a restart (the salt and batch key persist)', async () => {
    const { store, root, storage, clock } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const service = await store.create({ path: PATH }, ctx);
    const batch = await store.create({ path: PATH, type: 'batch', policies: ['dev'] }, ctx);
    const again = new TokenStore({ storage, random: new SeededRandom(3), clock });
    await again.setup();
    assert.equal((await again.lookup(service.token))?.accessor, service.entry.accessor);
    assert.deepEqual((await again.lookup(batch.token))?.policies, ['default', 'dev']);
    again.reset();
    await assert.rejects(again.lookup(service.token));
  });
});
