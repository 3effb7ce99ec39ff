import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertEnvelope, kvV2Server, MERGE_PATCH } from './kv-testing.js';

// KV v2 over HTTP: metadata/ (settings, custom_metadata, LIST, DELETE, PATCH) and subkeys/.
// Shared setup, helpers and the reference these tests follow: kv-testing.ts.

describe('KV v2 over HTTP', () => {
  const { t, clock, freshMount, write } = kvV2Server();

  describe('metadata', () => {
    it('reads the history of a secret with every field the established API has', async () => {
      const mount = await freshMount();
      clock.advance(1000);
      const w1 = await write(`${mount}/data/app`, { v: 1 });
      clock.advance(1000);
      const w2 = await write(`${mount}/data/app`, { v: 2 });
      const r = await t.request('GET', `${mount}/metadata/app`);
      assert.equal(r.status, 200);
      assertEnvelope(r.body);
      assert.deepEqual(r.body.data, {
        cas_required: false,
        created_time: w1.created_time,
        current_version: 2,
        custom_metadata: null,
        delete_version_after: '0s',
        max_versions: 0,
        oldest_version: 0,
        updated_time: w2.created_time,
        versions: {
          '1': { created_time: w1.created_time, deletion_time: '', destroyed: false },
          '2': { created_time: w2.created_time, deletion_time: '', destroyed: false },
        },
      });
    });

    it('answers 404 with an empty errors list for a key never written', async () => {
      const r = await t.request('GET', 'secret/metadata/never-written');
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { errors: [] });
    });

    it('stores settings and custom metadata, reading durations back as Go duration strings', async () => {
      const mount = await freshMount();
      const w = await t.request('POST', `${mount}/metadata/cfg`, {
        body: { max_versions: 5, cas_required: true, delete_version_after: '1h30m', custom_metadata: { owner: 'ops' } },
      });
      assert.equal(w.status, 204);
      const r = await t.request('GET', `${mount}/metadata/cfg`);
      assert.equal(r.body.data.max_versions, 5);
      assert.equal(r.body.data.cas_required, true);
      assert.equal(r.body.data.delete_version_after, '1h30m0s');
      assert.deepEqual(r.body.data.custom_metadata, { owner: 'ops' });
      assert.equal(r.body.data.current_version, 0);
      assert.deepEqual(r.body.data.versions, {});
    });

    it('changes only the settings a later write names', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/metadata/partial`, { body: { max_versions: 4, custom_metadata: { a: 'b' } } });
      await t.request('POST', `${mount}/metadata/partial`, { body: { cas_required: true } });
      const r = await t.request('GET', `${mount}/metadata/partial`);
      assert.equal(r.body.data.max_versions, 4);
      assert.equal(r.body.data.cas_required, true);
      assert.deepEqual(r.body.data.custom_metadata, { a: 'b' });
    });

    it('creates nothing for a write that names no setting', async () => {
      const mount = await freshMount();
      const w = await t.request('POST', `${mount}/metadata/nothing`, { body: {} });
      assert.equal(w.status, 204);
      assert.equal((await t.request('GET', `${mount}/metadata/nothing`)).status, 404);
      assert.equal((await t.request('LIST', `${mount}/metadata/`)).status, 404);
    });

    it('shows custom_metadata on data reads and write responses; accepts key=value lists', async () => {
      const mount = await freshMount();
      await t.request('POST', `${mount}/metadata/tagged`, { body: { custom_metadata: ['team=core', 'tier=1'] } });
      const w = await write(`${mount}/data/tagged`, { a: 1 });
      assert.deepEqual((w as unknown as { custom_metadata: unknown }).custom_metadata, { team: 'core', tier: '1' });
      const r = await t.request('GET', `${mount}/data/tagged`);
      assert.deepEqual(r.body.data.metadata.custom_metadata, { team: 'core', tier: '1' });
    });

    it('refuses custom_metadata that is not a map of strings', async () => {
      const r = await t.request('POST', 'secret/metadata/badmeta', { body: { custom_metadata: { a: { b: 1 } } } });
      assert.equal(r.status, 400);
      assert.match(r.body.errors[0], /^Field validation failed: error converting input for field "custom_metadata"/);
    });

    it('refuses custom_metadata over the established limits, naming each problem', async () => {
      const mount = await freshMount();
      const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']));
      const many = await t.request('POST', `${mount}/metadata/limits`, { body: { custom_metadata: tooMany } });
      assert.equal(many.status, 400);
      assert.deepEqual(many.body, {
        errors: [
          '1 error occurred:\n\t* custom_metadata validation failed: payload must contain at most 64 keys, provided 65\n\n',
        ],
      });
      const bad = await t.request('POST', `${mount}/metadata/limits`, {
        body: { custom_metadata: { empty: '', [`${'k'.repeat(129)}`]: 'v', long: 'v'.repeat(513) } },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, {
        errors: [
          '3 errors occurred:\n' +
            '\t* custom_metadata validation failed: length of value for key "empty" is 0 but must be 0 < len(value) <= 512\n' +
            `\t* custom_metadata validation failed: length of key "${'k'.repeat(129)}" is 129 but must be 0 < len(key) <= 128\n` +
            '\t* custom_metadata validation failed: length of value for key "long" is 513 but must be 0 < len(value) <= 512\n\n',
        ],
      });
      const fine = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'.repeat(512)]));
      assert.equal(
        (await t.request('POST', `${mount}/metadata/limits`, { body: { custom_metadata: fine } })).status,
        204,
      );
    });

    it('refuses a negative max_versions instead of pruning the version just written', async () => {
      const mount = await freshMount();
      for (const path of ['metadata/neg', 'config']) {
        const r = await t.request('POST', `${mount}/${path}`, { body: { max_versions: -1 } });
        assert.equal(r.status, 400, path);
        assert.deepEqual(r.body, { errors: ['max_versions cannot be negative'] });
      }
      await write(`${mount}/data/neg`, { a: 1 });
      assert.deepEqual((await t.request('GET', `${mount}/data/neg`)).body.data.data, { a: 1 });
    });

    it('DELETE removes every version and the metadata; a new write starts again at version 1', async () => {
      const mount = await freshMount();
      for (const v of [1, 2]) await write(`${mount}/data/gone`, { v });
      assert.equal((await t.request('DELETE', `${mount}/metadata/gone`)).status, 204);
      for (const path of ['data/gone', 'data/gone?version=1', 'metadata/gone']) {
        const r = await t.request('GET', `${mount}/${path}`);
        assert.equal(r.status, 404, path);
        assert.deepEqual(r.body, { errors: [] });
      }
      assert.equal((await t.request('LIST', `${mount}/metadata/`)).status, 404);
      assert.equal((await write(`${mount}/data/gone`, { v: 'again' })).version, 1);
      assert.equal((await t.request('GET', `${mount}/data/gone?version=2`)).status, 404, 'old data did not come back');
    });

    it('keeps a key and the keys below it apart: deleting one leaves the other', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/app`, { level: 'top' });
      await write(`${mount}/data/app/1`, { level: 'nested' });
      await write(`${mount}/data/app`, { level: 'top2' });
      assert.equal((await t.request('DELETE', `${mount}/metadata/app`)).status, 204);
      const nested = await t.request('GET', `${mount}/data/app/1`);
      assert.equal(nested.status, 200);
      assert.deepEqual(nested.body.data.data, { level: 'nested' });
      assert.deepEqual((await t.request('LIST', `${mount}/metadata/`)).body.data.keys, ['app/']);
      await write(`${mount}/data/app`, { level: 'again' });
      assert.equal((await t.request('DELETE', `${mount}/metadata/app/1`)).status, 204);
      assert.deepEqual((await t.request('GET', `${mount}/data/app`)).body.data.data, { level: 'again' });
      assert.deepEqual((await t.request('LIST', `${mount}/metadata/`)).body.data.keys, ['app']);
    });

    it('stores keys with spaces and non-ASCII characters under their decoded names', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/${encodeURIComponent('my key')}/${encodeURIComponent('clé')}`, { a: 1 });
      assert.deepEqual((await t.request('LIST', `${mount}/metadata/`)).body.data.keys, ['my key/']);
      assert.deepEqual((await t.request('LIST', `${mount}/metadata/my%20key/`)).body.data.keys, ['clé']);
      const r = await t.request('GET', `${mount}/data/my%20key/cl%C3%A9`);
      assert.deepEqual(r.body.data.data, { a: 1 });
    });

    it('lists keys and folders (ending in /) with LIST and with GET ?list=true', async () => {
      const mount = await freshMount();
      for (const key of ['b', 'a', 'dir/x', 'dir/sub/y', 'b/inner']) await write(`${mount}/data/${key}`, { k: key });
      for (const [method, path] of [
        ['LIST', 'metadata/'],
        ['LIST', 'metadata'],
        ['GET', 'metadata/?list=true'],
        ['GET', 'metadata?list=true'],
      ] as const) {
        const r = await t.request(method, `${mount}/${path}`);
        assert.equal(r.status, 200, `${method} ${path}`);
        assertEnvelope(r.body);
        assert.deepEqual(r.body.data, { keys: ['a', 'b', 'b/', 'dir/'] }, `${method} ${path}`);
      }
      const nested = await t.request('LIST', `${mount}/metadata/dir`);
      assert.deepEqual(nested.body.data.keys, ['sub/', 'x']);
      const deeper = await t.request('GET', `${mount}/metadata/dir/sub/?list=true`);
      assert.deepEqual(deeper.body.data.keys, ['y']);
    });

    it('answers an empty list with 404 and an empty errors list', async () => {
      const mount = await freshMount();
      for (const path of ['metadata/', 'metadata/nothing-here/']) {
        const r = await t.request('LIST', `${mount}/${path}`);
        assert.equal(r.status, 404, path);
        assert.deepEqual(r.body, { errors: [] });
      }
      await write(`${mount}/data/leaf`, { a: 1 });
      const leaf = await t.request('LIST', `${mount}/metadata/leaf`);
      assert.equal(leaf.status, 404, 'a key with no children lists nothing');
    });

    it('refuses ?list= with a value that is not a boolean', async () => {
      const r = await t.request('GET', 'secret/metadata/?list=maybe');
      assert.equal(r.status, 400);
    });
  });

  describe('metadata: PATCH', () => {
    it('changes only the settings it names and merges custom_metadata, null removing a key', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/p`, { a: 1 });
      await t.request('POST', `${mount}/metadata/p`, {
        body: { max_versions: 4, custom_metadata: { keep: 'k', drop: 'd', change: 'old' } },
      });
      const r = await t.request('PATCH', `${mount}/metadata/p`, {
        body: { cas_required: true, custom_metadata: { drop: null, change: 'new', add: 'a' } },
        headers: MERGE_PATCH,
      });
      assert.equal(r.status, 204);
      const meta = await t.request('GET', `${mount}/metadata/p`);
      assert.equal(meta.body.data.max_versions, 4);
      assert.equal(meta.body.data.cas_required, true);
      assert.deepEqual(meta.body.data.custom_metadata, { keep: 'k', change: 'new', add: 'a' });
      assert.equal(meta.body.data.current_version, 1, 'no new version');
    });

    it('removing a custom_metadata key that is not there changes nothing', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/bare`, { a: 1 });
      const r = await t.request('PATCH', `${mount}/metadata/bare`, {
        body: { custom_metadata: { absent: null, added: 'x' } },
        headers: MERGE_PATCH,
      });
      assert.equal(r.status, 204);
      const meta = await t.request('GET', `${mount}/metadata/bare`);
      assert.deepEqual(meta.body.data.custom_metadata, { added: 'x' });
    });

    it('refuses a null custom_metadata value in a plain write', async () => {
      const mount = await freshMount();
      const r = await t.request('POST', `${mount}/metadata/nulls`, { body: { custom_metadata: { k: null } } });
      assert.equal(r.status, 400);
      assert.match(r.body.errors[0], /length of value for key "k" is 0/);
    });

    it('answers 404 for a key that has no metadata, and creates none', async () => {
      const mount = await freshMount();
      const r = await t.request('PATCH', `${mount}/metadata/none`, { body: { max_versions: 2 }, headers: MERGE_PATCH });
      assert.equal(r.status, 404);
      assert.equal((await t.request('GET', `${mount}/metadata/none`)).status, 404);
    });

    it('needs the merge-patch content type', async () => {
      const r = await t.request('PATCH', 'secret/metadata/x', { body: { max_versions: 2 } });
      assert.equal(r.status, 415);
    });

    it('validates what it is given like a write', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/v`, { a: 1 });
      const neg = await t.request('PATCH', `${mount}/metadata/v`, { body: { max_versions: -2 }, headers: MERGE_PATCH });
      assert.deepEqual(neg.body, { errors: ['max_versions cannot be negative'] });
      const empty = await t.request('PATCH', `${mount}/metadata/v`, {
        body: { custom_metadata: { k: '' } },
        headers: MERGE_PATCH,
      });
      assert.equal(empty.status, 400);
      assert.match(empty.body.errors[0], /custom_metadata validation failed: length of value for key "k" is 0/);
    });
  });

  describe('subkeys', () => {
    const secret = { user: 'u', db: { host: 'h', port: 5432, tls: { ca: 'x' }, empty: {} }, list: [1, { a: 1 }] };

    it('shows the structure of the latest version with every leaf replaced by null', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/s`, { old: true });
      const w = await write(`${mount}/data/s`, secret);
      const r = await t.request('GET', `${mount}/subkeys/s`);
      assert.equal(r.status, 200);
      assertEnvelope(r.body);
      assert.deepEqual(r.body.data, {
        subkeys: { user: null, db: { host: null, port: null, tls: { ca: null }, empty: null }, list: null },
        metadata: {
          created_time: w.created_time,
          custom_metadata: null,
          deletion_time: '',
          destroyed: false,
          version: 2,
        },
      });
    });

    it('stops at depth and reads an older version with ?version', async () => {
      const mount = await freshMount();
      await write(`${mount}/data/s`, secret);
      await write(`${mount}/data/s`, { other: 1 });
      const one = await t.request('GET', `${mount}/subkeys/s?version=1&depth=1`);
      assert.deepEqual(one.body.data.subkeys, { user: null, db: null, list: null });
      const two = await t.request('GET', `${mount}/subkeys/s?version=1&depth=2`);
      assert.deepEqual(two.body.data.subkeys, {
        user: null,
        db: { host: null, port: null, tls: null, empty: null },
        list: null,
      });
      assert.equal(two.body.data.metadata.version, 1);
    });

    it('answers 404 for a key never written, and 404 with the full envelope for a deleted version', async () => {
      const mount = await freshMount();
      const missing = await t.request('GET', `${mount}/subkeys/none`);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { errors: [] });
      await write(`${mount}/data/s`, secret);
      await t.request('DELETE', `${mount}/data/s`);
      const r = await t.request('GET', `${mount}/subkeys/s`);
      assert.equal(r.status, 404);
      assertEnvelope(r.body);
      assert.equal(r.body.data.subkeys, null);
      assert.equal(r.body.data.metadata.version, 1);
    });
  });
});
