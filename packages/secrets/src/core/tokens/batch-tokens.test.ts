import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { createTestTokenStore, dumpStorage, SYSTEM_TTLS } from './testing.js';

const PATH = 'auth/token/create';

describe('batch tokens', () => {
  it('round-trip without touching storage, with no accessor, until their TTL ends', async () => {
    const { store, root, storage, clock } = await createTestTokenStore();
    const before = await dumpStorage(storage);
    const { token, entry } = await store.create(
      { path: PATH, type: 'batch', policies: ['dev'], ttl: 120, meta: { a: 'b' } },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    assert.match(token, /^hvb\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(await dumpStorage(storage), before);
    assert.deepEqual([entry.accessor, entry.renewable, entry.type], ['', false, 'batch']);
    const found = await store.lookup(token);
    assert.deepEqual(found?.policies, ['default', 'dev']);
    assert.deepEqual(found?.meta, { a: 'b' });
    clock.advance(120_000);
    assert.equal(await store.lookup(token), undefined);
  });

  it('cannot be renewed or revoked', async () => {
    const { store, root } = await createTestTokenStore();
    const { token, entry } = await store.create(
      { path: PATH, type: 'batch', policies: ['dev'] },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    const message = (text: string) => (err: unknown) => err instanceof InvalidRequestError && err.message === text;
    await assert.rejects(store.renew(entry, 0, SYSTEM_TTLS), message('batch tokens cannot be renewed'));
    await assert.rejects(store.revoke(token), message('batch tokens cannot be revoked'));
    await assert.rejects(store.revokeOrphan(token), message('batch tokens cannot be revoked'));
  });

  it('refuses a tampered or truncated token', async () => {
    const { store, root } = await createTestTokenStore();
    const { token } = await store.create(
      { path: PATH, type: 'batch', policies: ['dev'] },
      { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS },
    );
    const body = Buffer.from(token.slice(4), 'base64url');
    body[20] = (body[20] ?? 0) ^ 1;
    assert.equal(await store.lookup(`hvb.${body.toString('base64url')}`), undefined);
    assert.equal(await store.lookup(token.slice(0, 30)), undefined);
    assert.equal(await store.lookup('hvb.'), undefined);
  });

  it('die with their parent unless orphans', async () => {
    const { store, root } = await createTestTokenStore();
    const parent = await store.create({ path: PATH }, { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS });
    const ctx = { parent: parent.entry, isSudo: true, mount: SYSTEM_TTLS };
    const child = await store.create({ path: PATH, type: 'batch', policies: ['dev'] }, ctx);
    const orphan = await store.create({ path: PATH, type: 'batch', policies: ['dev'], noParent: true }, ctx);
    await store.revoke(parent.token);
    assert.equal(await store.lookup(child.token), undefined);
    assert.ok(await store.lookup(orphan.token));
  });

  it('refuse the fields batch tokens cannot have, and root policies', async () => {
    const { store, root } = await createTestTokenStore();
    const ctx = { parent: root.entry, isSudo: true, mount: SYSTEM_TTLS };
    const cases: Array<[object, string]> = [
      [{ explicitMaxTtl: 60 }, 'batch tokens cannot have "explicit_max_ttl" set'],
      [{ numUses: 1 }, 'batch tokens cannot have "num_uses" set'],
      [{ period: 60 }, 'batch tokens cannot have "period" set'],
      [{}, 'batch tokens cannot be root tokens'],
    ];
    for (const [extra, message] of cases) {
      await assert.rejects(
        store.create({ path: PATH, type: 'batch', ...extra }, ctx),
        (err: unknown) => err instanceof InvalidRequestError && err.message === message,
      );
    }
  });
});
