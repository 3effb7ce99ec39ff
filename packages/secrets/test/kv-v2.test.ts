import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// KV v2 over real HTTP: shapes, statuses and exact messages per the secrets-core
// reference §1 and §8.2 (issue 2, point 7).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const UNSUPPORTED_PATH = '1 error occurred:\n\t* unsupported path\n\n';

/** An RFC3339 UTC string denoting exactly `ms`. */
function assertTime(value: unknown, ms: number, what = 'time') {
  assert.equal(typeof value, 'string', `${what} is a string`);
  assert.match(value as string, RFC3339, `${what} is RFC3339`);
  assert.equal(Date.parse(value as string), ms, `${what} is the clock's time`);
}

function assertEnvelope(body: Record<string, unknown>) {
  assert.match(String(body.request_id), UUID);
  assert.equal(body.lease_id, '');
  assert.equal(body.lease_duration, 0);
  assert.equal(body.renewable, false);
  assert.equal(body.wrap_info, null);
  assert.equal(body.auth, null);
}

describe('KV v2 over HTTP', () => {
  let t: TestServer;
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  let mounts = 0;

  /** A fresh KV v2 mount, so each test starts from empty storage and default config. */
  async function freshMount(body: Record<string, unknown> = { type: 'kv-v2' }): Promise<string> {
    const name = `kv2-${++mounts}`;
    const r = await t.request('POST', `sys/mounts/${name}`, { body });
    assert.equal(r.status, 204, JSON.stringify(r.body));
    return name;
  }

  async function write(path: string, data: Record<string, unknown>, options?: Record<string, unknown>) {
    const r = await t.request('POST', path, { body: options ? { data, options } : { data } });
    assert.equal(r.status, 200, `write ${path}: ${JSON.stringify(r.body)}`);
    return r.body.data as { version: number; created_time: string; deletion_time: string };
  }

  before(async () => {
    t = await startTestServer({ clock });
  });
  after(() => t.stop());

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
