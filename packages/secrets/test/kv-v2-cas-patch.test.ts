import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kvV2Server, MERGE_PATCH } from './kv-testing.js';

// KV v2 over HTTP: check-and-set on data/ writes, and PATCH of data/.
// Shared setup, helpers and the reference these tests follow: kv-testing.ts.

describe('KV v2 over HTTP', () => {
  const { t, freshMount, write } = kvV2Server();

  describe('data: check-and-set', () => {
    it('accepts cas 0 only while the key has no versions', async () => {
      const mount = await freshMount();
      assert.equal((await write(`${mount}/data/k`, { a: 1 }, { cas: 0 })).version, 1);
      const again = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 2 }, options: { cas: 0 } } });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { errors: ['check-and-set parameter did not match the current version'] });
    });

    it('accepts a write whose cas names the current version and refuses a stale one', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/k`, { a: 1 });
      await write(`${mount}/data/k`, { a: 2 });
      const stale = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 3 }, options: { cas: 1 } } });
      assert.equal(stale.status, 400);
      assert.deepEqual(stale.body, { errors: ['check-and-set parameter did not match the current version'] });
      assert.equal((await write(`${mount}/data/k`, { a: 3 }, { cas: 2 })).version, 3);
      const r = await t.request('GET', `${mount}/data/k`);
      assert.deepEqual(r.body.data.data, { a: 3 });
    });

    it('requires cas on every write when the mount config says so', async () => {
      const mount = await freshMount();
      assert.equal((await t.request('POST', `${mount}/config`, { body: { cas_required: true } })).status, 204);
      const r = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 1 } } });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: ['check-and-set parameter required for this call'] });
      assert.equal((await write(`${mount}/data/k`, { a: 1 }, { cas: 0 })).version, 1);
      const wrong = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 2 }, options: { cas: 0 } } });
      assert.deepEqual(wrong.body, { errors: ['check-and-set parameter did not match the current version'] });
    });

    it('requires cas on a key whose metadata says so, and only on that key', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/strict`, { a: 1 });
      assert.equal((await t.request('POST', `${mount}/metadata/strict`, { body: { cas_required: true } })).status, 204);
      const r = await t.request('POST', `${mount}/data/strict`, { body: { data: { a: 2 } } });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: ['check-and-set parameter required for this call'] });
      assert.equal((await write(`${mount}/data/strict`, { a: 2 }, { cas: 1 })).version, 2);
      assert.equal((await write(`${mount}/data/relaxed`, { a: 1 })).version, 1);
    });
    it('takes cas as a number string, refuses one it cannot parse, and treats a negative one as a mismatch', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/k`, { a: 1 });
      assert.equal((await write(`${mount}/data/k`, { a: 2 }, { cas: '1' })).version, 2);
      const bad = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 3 }, options: { cas: 'two' } } });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { errors: ['error parsing check-and-set parameter'] });
      const negative = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 3 }, options: { cas: -1 } } });
      assert.equal(negative.status, 400);
      assert.deepEqual(negative.body, { errors: ['check-and-set parameter did not match the current version'] });
    });

    it('warns that a key cannot opt out of cas the mount requires', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/config`, { body: { cas_required: true } });
      const r = await t.request('POST', `${mount}/metadata/k`, { body: { cas_required: false } });
      assert.equal(r.status, 200);
      assert.equal(r.body.data, null);
      assert.deepEqual(r.body.warnings, [
        '"cas_required" set to false, but is mandated by backend config. This value will be ignored.',
      ]);
      const w = await t.request('POST', `${mount}/data/k`, { body: { data: { a: 1 } } });
      assert.deepEqual(w.body, { errors: ['check-and-set parameter required for this call'] });
    });
  });

  describe('data: PATCH', () => {
    it('needs the merge-patch content type, else 415 naming what was sent', async () => {
      await write('secret/data/patch-ct', { a: 1 });
      const r = await t.request('PATCH', 'secret/data/patch-ct', {
        body: { data: { b: 2 } },
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(r.status, 415);
      assert.deepEqual(r.body, {
        errors: ['PATCH requires Content-Type of application/merge-patch+json, provided application/json'],
      });
      assert.equal((await t.request('GET', 'secret/data/patch-ct')).body.data.metadata.version, 1);
    });

    it('merges into the latest version as a new version: null removes, objects merge, the rest replaces', async () => {
      await write('secret/data/patch', { keep: 'k', drop: 'd', nested: { x: 1, y: 2 }, list: [1, 2], swap: 'old' });
      const p = await t.request('PATCH', 'secret/data/patch', {
        body: {
          data: { drop: null, nested: { y: null, z: 3 }, list: [3], swap: { now: 'object', gone: null }, added: true },
        },
        headers: MERGE_PATCH,
      });
      assert.equal(p.status, 200);
      assert.equal(p.body.data.version, 2);
      assert.equal(p.body.data.deletion_time, '');
      const r = await t.request('GET', 'secret/data/patch');
      assert.deepEqual(r.body.data.data, {
        keep: 'k',
        nested: { x: 1, z: 3 },
        list: [3],
        swap: { now: 'object' },
        added: true,
      });
      const v1 = await t.request('GET', 'secret/data/patch?version=1');
      assert.deepEqual(v1.body.data.data.drop, 'd', 'the old version is untouched');
    });

    it('answers 404 for a key never written', async () => {
      const r = await t.request('PATCH', 'secret/data/patch-missing', {
        body: { data: { a: 1 } },
        headers: MERGE_PATCH,
      });
      assert.equal(r.status, 404);
      assert.equal((await t.request('GET', 'secret/data/patch-missing')).status, 404, 'nothing was created');
    });

    it('answers 404 when the latest version is deleted, and writes nothing', async () => {
      await write('secret/data/patch-deleted', { a: 1 });
      assert.equal((await t.request('DELETE', 'secret/data/patch-deleted')).status, 204);
      const r = await t.request('PATCH', 'secret/data/patch-deleted', {
        body: { data: { a: 2 } },
        headers: MERGE_PATCH,
      });
      assert.equal(r.status, 404);
      assert.equal(r.body.data.version, 1, 'the 404 carries the deleted version metadata, as a read does');
      assert.equal(r.body.data.destroyed, false);
      const meta = await t.request('GET', 'secret/metadata/patch-deleted');
      assert.equal(meta.body.data.current_version, 1);
    });

    it('refuses a patch without data', async () => {
      await write('secret/data/patch-nodata', { a: 1 });
      const r = await t.request('PATCH', 'secret/data/patch-nodata', { body: { options: {} }, headers: MERGE_PATCH });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: ['no data provided'] });
    });

    it('checks cas like a write', async () => {
      await write('secret/data/patch-cas', { a: 1 });
      const stale = await t.request('PATCH', 'secret/data/patch-cas', {
        body: { data: { a: 2 }, options: { cas: 0 } },
        headers: MERGE_PATCH,
      });
      assert.equal(stale.status, 400);
      assert.deepEqual(stale.body, { errors: ['check-and-set parameter did not match the current version'] });
      const ok = await t.request('PATCH', 'secret/data/patch-cas', {
        body: { data: { a: 2 }, options: { cas: 1 } },
        headers: MERGE_PATCH,
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.data.version, 2);
    });
  });
});
