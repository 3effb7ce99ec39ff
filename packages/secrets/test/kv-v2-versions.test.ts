import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertEnvelope, assertTime, kvV2Server } from './kv-testing.js';

// KV v2 over HTTP: the version lifecycle: delete/undelete/destroy, max_versions, config and delete_version_after.
// Shared setup, helpers and the reference these tests follow: kv-testing.ts.

describe('KV v2 over HTTP', () => {
  const { t, clock, freshMount, write } = kvV2Server();

  describe('soft delete, undelete, destroy', () => {
    it('DELETE soft-deletes the latest version: its read is a 404 with the full envelope', async () => {
      await write('secret/data/soft', { v: 1 });
      const w2 = await write('secret/data/soft', { v: 2 });
      clock.advance(500);
      const d = await t.request('DELETE', 'secret/data/soft');
      assert.equal(d.status, 204);
      assert.equal(d.body, undefined);

      const r = await t.request('GET', 'secret/data/soft');
      assert.equal(r.status, 404);
      assertEnvelope(r.body);
      assert.equal(r.body.errors, undefined, 'not the errors envelope');
      assert.equal(r.body.data.data, null);
      const { deletion_time, ...rest } = r.body.data.metadata;
      assertTime(deletion_time, clock.now(), 'deletion_time');
      assert.deepEqual(rest, { created_time: w2.created_time, custom_metadata: null, destroyed: false, version: 2 });

      const v1 = await t.request('GET', 'secret/data/soft?version=1');
      assert.equal(v1.status, 200, 'older versions stay readable');
      assert.deepEqual(v1.body.data.data, { v: 1 });
    });

    it('DELETE of a key never written is a 204', async () => {
      assert.equal((await t.request('DELETE', 'secret/data/never-there')).status, 204);
    });

    it('a write after a soft delete makes a new live version', async () => {
      await write('secret/data/soft-rewrite', { v: 1 });
      await t.request('DELETE', 'secret/data/soft-rewrite');
      assert.equal((await write('secret/data/soft-rewrite', { v: 2 })).version, 2);
      assert.deepEqual((await t.request('GET', 'secret/data/soft-rewrite')).body.data.data, { v: 2 });
    });

    it('delete/ and undelete/ act on the listed versions only', async () => {
      for (const v of [1, 2, 3]) await write('secret/data/multi', { v });
      const d = await t.request('POST', 'secret/delete/multi', { body: { versions: [1, 3] } });
      assert.equal(d.status, 204);
      assert.equal((await t.request('GET', 'secret/data/multi?version=1')).status, 404);
      assert.equal((await t.request('GET', 'secret/data/multi?version=2')).status, 200);
      assert.equal((await t.request('GET', 'secret/data/multi?version=3')).status, 404);

      const u = await t.request('POST', 'secret/undelete/multi', { body: { versions: [3] } });
      assert.equal(u.status, 204);
      const r = await t.request('GET', 'secret/data/multi');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data.data, { v: 3 });
      assert.equal(r.body.data.metadata.deletion_time, '');
      assert.equal((await t.request('GET', 'secret/data/multi?version=1')).status, 404, 'v1 stays deleted');
    });

    it('accepts versions as a comma string and ignores versions that do not exist', async () => {
      for (const v of [1, 2]) await write('secret/data/comma', { v });
      const d = await t.request('PUT', 'secret/delete/comma', { body: { versions: '1,2,99' } });
      assert.equal(d.status, 204);
      assert.equal((await t.request('GET', 'secret/data/comma?version=1')).status, 404);
      assert.equal((await t.request('GET', 'secret/data/comma?version=2')).status, 404);
      const meta = await t.request('GET', 'secret/metadata/comma');
      assert.deepEqual(Object.keys(meta.body.data.versions).sort(), ['1', '2']);
    });

    it('refuses delete, undelete and destroy without versions', async () => {
      await write('secret/data/noversions', { v: 1 });
      for (const action of ['delete', 'undelete', 'destroy']) {
        for (const body of [{}, { versions: [] }]) {
          const r = await t.request('POST', `secret/${action}/noversions`, { body });
          assert.equal(r.status, 400, `${action} ${JSON.stringify(body)}`);
          assert.deepEqual(r.body, { errors: ['no version number provided'] });
        }
      }
    });

    it('destroy/ removes a version for good: 404 with destroyed true, and undelete cannot bring it back', async () => {
      for (const v of [1, 2]) await write('secret/data/destroy', { v });
      assert.equal((await t.request('POST', 'secret/destroy/destroy', { body: { versions: [2] } })).status, 204);
      const r = await t.request('GET', 'secret/data/destroy');
      assert.equal(r.status, 404);
      assertEnvelope(r.body);
      assert.equal(r.body.data.data, null);
      assert.equal(r.body.data.metadata.destroyed, true);
      assert.equal(r.body.data.metadata.version, 2);

      assert.equal((await t.request('POST', 'secret/undelete/destroy', { body: { versions: [2] } })).status, 204);
      assert.equal((await t.request('GET', 'secret/data/destroy')).status, 404);
      const meta = await t.request('GET', 'secret/metadata/destroy');
      assert.equal(meta.body.data.versions['2'].destroyed, true);
      assert.equal(meta.body.data.versions['1'].destroyed, false);
      assert.equal((await t.request('GET', 'secret/data/destroy?version=1')).status, 200);
    });

    it('a soft-deleted version can be destroyed, and then reads as destroyed', async () => {
      await write('secret/data/del-then-destroy', { v: 1 });
      await t.request('DELETE', 'secret/data/del-then-destroy');
      await t.request('POST', 'secret/destroy/del-then-destroy', { body: { versions: [1] } });
      const r = await t.request('GET', 'secret/data/del-then-destroy');
      assert.equal(r.status, 404);
      assert.equal(r.body.data.metadata.destroyed, true);
    });

    it('delete/ and undelete/ on a key never written are 204s and create nothing', async () => {
      for (const action of ['delete', 'undelete', 'destroy']) {
        const r = await t.request('POST', `secret/${action}/ghost`, { body: { versions: [1] } });
        assert.equal(r.status, 204, action);
      }
      assert.equal((await t.request('GET', 'secret/metadata/ghost')).status, 404);
    });
  });

  describe('max_versions', () => {
    it('a key keeps its last max_versions versions; oldest_version moves up', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/metadata/pruned`, { body: { max_versions: 2 } });
      for (const v of [1, 2, 3, 4]) await write(`${mount}/data/pruned`, { v });
      const meta = await t.request('GET', `${mount}/metadata/pruned`);
      assert.deepEqual(Object.keys(meta.body.data.versions).sort(), ['3', '4']);
      assert.equal(meta.body.data.oldest_version, 3);
      assert.equal(meta.body.data.current_version, 4);
      for (const v of [1, 2]) {
        const r = await t.request('GET', `${mount}/data/pruned?version=${v}`);
        assert.equal(r.status, 404, `version ${v}`);
        assert.deepEqual(r.body, { errors: [] });
      }
      assert.deepEqual((await t.request('GET', `${mount}/data/pruned?version=3`)).body.data.data, { v: 3 });
    });

    it('the mount config limits keys without their own setting', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/config`, { body: { max_versions: 3 } });
      for (let v = 1; v <= 5; v++) await write(`${mount}/data/k`, { v });
      const meta = await t.request('GET', `${mount}/metadata/k`);
      assert.deepEqual(Object.keys(meta.body.data.versions).sort(), ['3', '4', '5']);
      assert.equal(meta.body.data.oldest_version, 3);
    });

    it('keeps 10 versions by default', async () => {
      const mount = await freshMount();
      for (let v = 1; v <= 12; v++) await write(`${mount}/data/k`, { v });
      const meta = await t.request('GET', `${mount}/metadata/k`);
      assert.equal(Object.keys(meta.body.data.versions).length, 10);
      assert.equal(meta.body.data.oldest_version, 3);
      assert.equal((await t.request('GET', `${mount}/data/k?version=2`)).status, 404);
    });
  });

  describe('config and delete_version_after', () => {
    it('reads the defaults of a new mount', async () => {
      const mount = await freshMount();
      const r = await t.request('GET', `${mount}/config`);
      assert.equal(r.status, 200);
      assertEnvelope(r.body);
      assert.deepEqual(r.body.data, { cas_required: false, delete_version_after: '0s', max_versions: 0 });
    });

    it('stores settings, reading delete_version_after back as a Go duration string', async () => {
      const mount = await freshMount();
      for (const [input, shown] of [
        ['1h', '1h0m0s'],
        [90, '1m30s'],
        ['90', '1m30s'],
        ['36h', '36h0m0s'],
        ['0s', '0s'],
      ] as const) {
        const w = await t.request('POST', `${mount}/config`, { body: { delete_version_after: input } });
        assert.equal(w.status, 204);
        const r = await t.request('GET', `${mount}/config`);
        assert.equal(r.body.data.delete_version_after, shown, String(input));
      }
      await t.request('POST', `${mount}/config`, { body: { max_versions: '7', cas_required: 'true' } });
      const r = await t.request('GET', `${mount}/config`);
      assert.deepEqual(r.body.data, { cas_required: true, delete_version_after: '0s', max_versions: 7 });
    });

    it('refuses a malformed setting', async () => {
      const mount = await freshMount();
      for (const body of [{ delete_version_after: 'soon' }, { max_versions: 'many' }, { cas_required: 'perhaps' }]) {
        const r = await t.request('POST', `${mount}/config`, { body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.match(r.body.errors[0], /^Field validation failed: /);
      }
      const r = await t.request('GET', `${mount}/config`);
      assert.deepEqual(r.body.data, { cas_required: false, delete_version_after: '0s', max_versions: 0 });
    });

    it('a version written under delete_version_after reads until that time passes, then is a deleted 404', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/config`, { body: { delete_version_after: '1h' } });
      const w = await write(`${mount}/data/expiring`, { a: 1 });
      const written = Date.parse(w.created_time);
      assertTime(w.deletion_time, written + 3_600_000, 'deletion_time of the write');

      clock.advance(3_600_000 - 1);
      const before = await t.request('GET', `${mount}/data/expiring`);
      assert.equal(before.status, 200);
      assert.deepEqual(before.body.data.data, { a: 1 });

      clock.advance(1);
      const r = await t.request('GET', `${mount}/data/expiring`);
      assert.equal(r.status, 404);
      assertEnvelope(r.body);
      assert.equal(r.body.data.data, null);
      assertTime(r.body.data.metadata.deletion_time, written + 3_600_000, 'deletion_time of the read');
    });

    it("a key's own delete_version_after applies when shorter than the mount's", async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/config`, { body: { delete_version_after: '1h' } });
      await t.request('POST', `${mount}/metadata/short`, { body: { delete_version_after: '10m' } });
      const w = await write(`${mount}/data/short`, { a: 1 });
      assertTime(w.deletion_time, Date.parse(w.created_time) + 600_000);
      clock.advance(600_000);
      assert.equal((await t.request('GET', `${mount}/data/short`)).status, 404);
    });

    it("a key's own delete_version_after applies on a mount without one", async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/metadata/own`, { body: { delete_version_after: 60 } });
      const w = await write(`${mount}/data/own`, { a: 1 });
      assertTime(w.deletion_time, Date.parse(w.created_time) + 60_000);
    });

    it('DELETE of a version due to expire later deletes it now; undelete clears the deletion time', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/config`, { body: { delete_version_after: '1h' } });
      await write(`${mount}/data/early`, { a: 1 });
      clock.advance(1000);
      assert.equal((await t.request('DELETE', `${mount}/data/early`)).status, 204);
      const r = await t.request('GET', `${mount}/data/early`);
      assert.equal(r.status, 404);
      assertTime(r.body.data.metadata.deletion_time, clock.now());

      await t.request('POST', `${mount}/undelete/early`, { body: { versions: [1] } });
      clock.advance(7_200_000);
      const u = await t.request('GET', `${mount}/data/early`);
      assert.equal(u.status, 200, 'undelete removed the scheduled deletion too');
      assert.equal(u.body.data.metadata.deletion_time, '');
    });
  });
});
