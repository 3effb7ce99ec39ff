import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertEnvelope, assertTime, kvV2Server, UNSUPPORTED_PATH } from './kv-testing.js';

// KV v2 over HTTP: data/ writes and reads (versions, warnings, concurrency) and mounting.
// Shared setup, helpers and the reference these tests follow: kv-testing.ts.

describe('KV v2 over HTTP', () => {
  const { t, clock, freshMount, write } = kvV2Server();

  describe('data: write and read', () => {
    it('answers a write with the new version metadata in the standard envelope', async () => {
      clock.advance(1234);
      const r = await t.request('POST', 'secret/data/shape', { body: { data: { password: 'p1', n: 1 } } });
      assert.equal(r.status, 200);
      assertEnvelope(r.body);
      assert.equal(r.body.warnings, null);
      const { created_time, ...rest } = r.body.data;
      assertTime(created_time, clock.now(), 'created_time');
      assert.deepEqual(rest, { custom_metadata: null, deletion_time: '', destroyed: false, version: 1 });
    });

    it('reads the secret back with its metadata, values keeping their JSON types', async () => {
      const secret = { password: 'p1', port: 5432, enabled: true, tags: ['a', 'b'], nested: { x: null } };
      const w = await write('secret/data/types', secret);
      const r = await t.request('GET', 'secret/data/types');
      assert.equal(r.status, 200);
      assertEnvelope(r.body);
      assert.deepEqual(r.body.data, {
        data: secret,
        metadata: {
          created_time: w.created_time,
          custom_metadata: null,
          deletion_time: '',
          destroyed: false,
          version: 1,
        },
      });
      assert.equal(r.headers.get('cache-control'), 'no-store');
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    });

    it('numbers versions 1, 2, 3 and reads any of them with ?version=N', async () => {
      for (const n of [1, 2, 3]) {
        clock.advance(1000);
        assert.equal((await write('secret/data/versions', { n })).version, n);
      }
      for (const n of [1, 2, 3]) {
        const r = await t.request('GET', `secret/data/versions?version=${n}`);
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.data.data, { n });
        assert.equal(r.body.data.metadata.version, n);
      }
      const latest = await t.request('GET', 'secret/data/versions');
      assert.deepEqual(latest.body.data.data, { n: 3 });
      assert.equal(latest.body.data.metadata.version, 3);
      const zero = await t.request('GET', 'secret/data/versions?version=0');
      assert.equal(zero.body.data.metadata.version, 3, 'version=0 means the latest');
    });

    it('answers 404 with an empty errors list for a version that was never written', async () => {
      await write('secret/data/one-version', { a: 1 });
      const r = await t.request('GET', 'secret/data/one-version?version=7');
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { errors: [] });
    });

    it('refuses a version that is not an integer', async () => {
      const r = await t.request('GET', 'secret/data/one-version?version=latest');
      assert.equal(r.status, 400);
      assert.match(r.body.errors[0], /^Field validation failed: error converting input for field "version"/);
    });

    it('answers 404 with an empty errors list for a key never written', async () => {
      const r = await t.request('GET', 'secret/data/never-written');
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { errors: [] });
    });

    it('refuses a write without data', async () => {
      for (const body of [{}, { options: { cas: 0 } }, { data: null }]) {
        const r = await t.request('POST', 'secret/data/empty', { body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.deepEqual(r.body, { errors: ['no data provided'] });
      }
      assert.equal((await t.request('GET', 'secret/data/empty')).status, 404, 'nothing was stored');
    });

    it('refuses data that is not a map', async () => {
      const r = await t.request('POST', 'secret/data/not-a-map', { body: { data: ['a'] } });
      assert.equal(r.status, 400);
      assert.match(r.body.errors[0], /^Field validation failed: error converting input for field "data"/);
    });

    it('treats PUT as POST', async () => {
      const r = await t.request('PUT', 'secret/data/put', { body: { data: { a: 'b' } } });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.version, 1);
    });

    it('warns about unrecognised parameters on a response with data', async () => {
      const w = await t.request('POST', 'secret/data/warn', { body: { data: { a: 1 }, zeta: 1, alpha: 'x' } });
      assert.equal(w.status, 200);
      assert.deepEqual(w.body.warnings, ['Endpoint ignored these unrecognized parameters: [alpha zeta]']);
      const r = await t.request('GET', 'secret/data/warn?colour=red');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data.data, { a: 1 }, 'query parameters are not data');
      assert.deepEqual(r.body.warnings, ['Endpoint ignored these unrecognized parameters: [colour]']);
    });

    it('lists the ignored-parameters warning before the replaced-by-path warning', async () => {
      const r = await t.request('POST', 'secret/data/warn-order', {
        body: { path: 'elsewhere', data: { a: 1 }, junk: 1 },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.warnings, [
        'Endpoint ignored these unrecognized parameters: [junk]',
        "Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [path]",
      ]);
      assert.equal((await t.request('GET', 'secret/data/elsewhere')).status, 404, 'the capture won');
    });

    it('warns about a body key replaced by the path capture even when the values are equal', async () => {
      const r = await t.request('POST', 'secret/data/warn-same', { body: { path: 'warn-same', data: { a: 1 } } });
      assert.deepEqual(r.body.warnings, [
        "Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [path]",
      ]);
    });

    it('sends no warning, and no body, when the response has no data', async () => {
      await write('secret/data/warn-204', { a: 1 });
      const r = await t.request('POST', 'secret/metadata/warn-204', { body: { max_versions: 3, bogus: 1 } });
      assert.equal(r.status, 204);
      assert.equal(r.body, undefined);
    });

    it('answers 404 unsupported path for a path parameter ending in a period', async () => {
      for (const method of ['GET', 'POST']) {
        const r = await t.request(method, 'secret/data/app.', {
          body: method === 'POST' ? { data: { a: 1 } } : undefined,
        });
        assert.equal(r.status, 404, method);
        assert.deepEqual(r.body, { errors: [UNSUPPORTED_PATH] });
      }
      const r = await t.request('GET', 'secret/data/app.');
      assert.equal(r.status, 404, 'the refused write stored nothing either');
    });

    it("refuses a write to a path ending in '/'", async () => {
      const r = await t.request('POST', 'secret/data/folder/', { body: { data: { a: 1 } } });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: ["cannot write to a path ending in '/'"] });
    });

    it('gives 20 concurrent writes to one key 20 distinct consecutive versions, none lost', async () => {
      // Keep every version, so each one can be read back below.
      await t.request('POST', 'secret/metadata/race', { body: { max_versions: 20 } });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.request('POST', 'secret/data/race', { body: { data: { writer: i } } })),
      );
      for (const r of results) assert.equal(r.status, 200);
      const versions = results.map((r) => r.body.data.version as number).sort((a, b) => a - b);
      assert.deepEqual(
        versions,
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      // Each version holds what the write that got it sent.
      for (const [i, r] of results.entries()) {
        const read = await t.request('GET', `secret/data/race?version=${r.body.data.version}`);
        assert.deepEqual(read.body.data.data, { writer: i });
      }
      const meta = await t.request('GET', 'secret/metadata/race');
      assert.equal(meta.body.data.current_version, 20);
    });
  });

  describe('mounting', () => {
    it('mounts v2 as type kv with options.version 2, or as kv-v2, each with its own storage', async () => {
      const a = await freshMount({ type: 'kv', options: { version: '2' } });
      const b = await freshMount({ type: 'kv-v2' });
      await write(`${a}/data/shared-name`, { from: 'a' });
      assert.equal((await t.request('GET', `${b}/data/shared-name`)).status, 404);
      assert.equal((await t.request('GET', `secret/data/shared-name`)).status, 404);
      await write(`${b}/data/shared-name`, { from: 'b' });
      assert.deepEqual((await t.request('GET', `${a}/data/shared-name`)).body.data.data, { from: 'a' });
      assert.deepEqual((await t.request('GET', `${b}/data/shared-name`)).body.data.data, { from: 'b' });
    });

    it('answers 405 for an operation a path does not support', async () => {
      const r = await t.request('DELETE', 'secret/config');
      assert.equal(r.status, 405);
      assert.deepEqual(r.body, { errors: ['1 error occurred:\n\t* unsupported operation\n\n'] });
    });

    it('answers 404 unsupported path for a path no KV v2 route matches', async () => {
      const r = await t.request('GET', 'secret/nowhere/x');
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { errors: [UNSUPPORTED_PATH] });
    });
  });
});
