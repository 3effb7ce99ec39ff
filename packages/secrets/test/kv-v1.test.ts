import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// KV v1 (passthrough) over real HTTP, per the secrets-core reference §8.1.

const DEFAULT_LEASE_SECONDS = 2_764_800; // 768h, the system default lease TTL
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('KV v1 over HTTP', () => {
  let t: TestServer;
  let mounts = 0;

  async function freshMount(body: Record<string, unknown> = { type: 'kv' }): Promise<string> {
    const name = `kv1-${++mounts}`;
    const r = await t.request('POST', `sys/mounts/${name}`, { body });
    assert.equal(r.status, 204, JSON.stringify(r.body));
    return name;
  }

  before(async () => {
    t = await startTestServer({ clock: new FakeClock('2024-01-01T00:00:00Z') });
  });
  after(() => t.stop());

  it('writes with a 204 and reads the map back with the mount default lease', async () => {
    const kv = await freshMount();
    const secret = { user: 'app', port: 5432, tls: true, hosts: ['a', 'b'], extra: { x: null } };
    const w = await t.request('POST', `${kv}/db`, { body: secret });
    assert.equal(w.status, 204);
    assert.equal(w.body, undefined);

    const r = await t.request('GET', `${kv}/db`);
    assert.equal(r.status, 200);
    assert.match(r.body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.lease_id, '');
    assert.equal(r.body.renewable, false);
    assert.equal(r.body.lease_duration, DEFAULT_LEASE_SECONDS);
    assert.deepEqual(r.body.data, secret);
    assert.equal(r.body.warnings, null);
    assert.equal(r.body.auth, null);
  });

  it('sends the JSON content type and no-store on a 204 write, as on every API response', async () => {
    const kv = await freshMount();
    const w = await t.request('POST', `${kv}/headers`, { body: { a: 'b' } });
    assert.equal(w.status, 204);
    assert.equal(w.headers.get('cache-control'), 'no-store');
    assert.equal(w.headers.get('content-type'), 'application/json');
  });

  it('mounts as kv-v1 and as kv with options.version 1 too', async () => {
    for (const body of [{ type: 'kv-v1' }, { type: 'kv', options: { version: '1' } }]) {
      const kv = await freshMount(body);
      assert.equal((await t.request('PUT', `${kv}/k`, { body: { a: 'b' } })).status, 204);
      assert.deepEqual((await t.request('GET', `${kv}/k`)).body.data, { a: 'b' });
      assert.equal((await t.request('GET', `${kv}/data/k`)).status, 404, 'no v2 layout on a v1 mount');
    }
  });

  it('reports the mount default lease TTL when the mount sets one', async () => {
    const kv = await freshMount({ type: 'kv', config: { default_lease_ttl: '1h' } });
    await t.request('POST', `${kv}/k`, { body: { a: 'b' } });
    assert.equal((await t.request('GET', `${kv}/k`)).body.lease_duration, 3600);
  });

  it('a ttl key in the secret sets lease_duration and stays in the data', async () => {
    const kv = await freshMount();
    for (const [ttl, seconds] of [
      ['1h', 3600],
      [90, 90],
      ['90', 90],
      ['1h30m', 5400],
    ] as const) {
      await t.request('POST', `${kv}/rotating`, { body: { password: 'p', ttl } });
      const r = await t.request('GET', `${kv}/rotating`);
      assert.equal(r.body.lease_duration, seconds, String(ttl));
      assert.deepEqual(r.body.data, { password: 'p', ttl });
      assert.equal(r.body.lease_id, '');
      assert.equal(r.body.renewable, false);
    }
  });

  it('a legacy lease key sets lease_duration when there is no ttl key', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/legacy`, { body: { password: 'p', lease: '2h' } });
    assert.equal((await t.request('GET', `${kv}/legacy`)).body.lease_duration, 7200);
  });

  it('a secret whose lease key is not a duration still reads, with the default lease', async () => {
    const kv = await freshMount();
    const w = await t.request('POST', `${kv}/odd-lease`, { body: { lease: 'month-to-month' } });
    assert.equal(w.status, 204);
    const r = await t.request('GET', `${kv}/odd-lease`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { lease: 'month-to-month' });
    assert.equal(r.body.lease_duration, DEFAULT_LEASE_SECONDS);
  });

  it('refuses a ttl that is not a duration', async () => {
    const kv = await freshMount();
    const r = await t.request('POST', `${kv}/bad-ttl`, { body: { ttl: 'soon' } });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0], /field "ttl"/);
    assert.equal((await t.request('GET', `${kv}/bad-ttl`)).status, 404);
  });

  it('an overwrite replaces the whole map', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/k`, { body: { a: '1', b: '2' } });
    await t.request('POST', `${kv}/k`, { body: { c: '3' } });
    assert.deepEqual((await t.request('GET', `${kv}/k`)).body.data, { c: '3' });
  });

  it('stores every key it is sent, including one named like the path capture', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/conf`, { body: { path: '/etc/app.conf', mode: '0600' } });
    assert.deepEqual((await t.request('GET', `${kv}/conf`)).body.data, { path: '/etc/app.conf', mode: '0600' });
    const only = await t.request('POST', `${kv}/only-path`, { body: { path: 'x' } });
    assert.equal(only.status, 204);
    assert.deepEqual((await t.request('GET', `${kv}/only-path`)).body.data, { path: 'x' });
  });

  it('deletes with a 204, also for a key that is not there', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/k`, { body: { a: 'b' } });
    const d = await t.request('DELETE', `${kv}/k`);
    assert.equal(d.status, 204);
    const r = await t.request('GET', `${kv}/k`);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { errors: [] });
    assert.equal((await t.request('DELETE', `${kv}/never`)).status, 204);
  });

  it('answers 404 with an empty errors list for a key never written', async () => {
    const kv = await freshMount();
    const r = await t.request('GET', `${kv}/never`);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { errors: [] });
  });

  it('lists keys and folders (ending in /) with LIST and GET ?list=true; nothing is a 404', async () => {
    const kv = await freshMount();
    const empty = await t.request('LIST', `${kv}/`);
    assert.equal(empty.status, 404);
    assert.deepEqual(empty.body, { errors: [] });

    for (const key of ['z', 'a', 'app/db', 'app/cache/redis', 'a/b']) {
      await t.request('POST', `${kv}/${key}`, { body: { k: key } });
    }
    for (const [method, path] of [
      ['LIST', ''],
      ['GET', '?list=true'],
    ] as const) {
      const r = await t.request(method, `${kv}/${path}`);
      assert.equal(r.status, 200, `${method} ${path}`);
      assert.deepEqual(r.body.data, { keys: ['a', 'a/', 'app/', 'z'] });
      assert.equal(r.body.lease_duration, 0);
    }
    assert.deepEqual((await t.request('LIST', `${kv}/app`)).body.data.keys, ['cache/', 'db']);
    assert.deepEqual((await t.request('GET', `${kv}/app/cache/?list=true`)).body.data.keys, ['redis']);
    assert.equal((await t.request('LIST', `${kv}/nothing/`)).status, 404);

    await t.request('DELETE', `${kv}/app/cache/redis`);
    assert.deepEqual((await t.request('LIST', `${kv}/app`)).body.data.keys, ['db'], 'an emptied folder disappears');
  });

  it('refuses a write with no data fields', async () => {
    const kv = await freshMount();
    for (const body of [{}, undefined, '']) {
      const r = await t.request('POST', `${kv}/empty`, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { errors: ['missing data fields'] });
    }
  });

  it('accepts a form-encoded body; repeated keys are joined by commas', async () => {
    const kv = await freshMount();
    const w = await t.request('POST', `${kv}/form`, { body: 'user=app&pass=s%26cret&tag=a&tag=b', headers: FORM });
    assert.equal(w.status, 204);
    assert.deepEqual((await t.request('GET', `${kv}/form`)).body.data, { user: 'app', pass: 's&cret', tag: 'a,b' });
  });

  it('reads a JSON body sent with the form content type as JSON', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/json-as-form`, { body: ' {"n":1}', headers: FORM });
    assert.deepEqual((await t.request('GET', `${kv}/json-as-form`)).body.data, { n: 1 });
  });

  it('refuses a malformed JSON body', async () => {
    const kv = await freshMount();
    const r = await t.request('POST', `${kv}/broken`, { body: '{"a":' });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0], /^failed to parse JSON input: /);
  });

  it('does not take GET query parameters as data, and warns that it ignored them', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/q`, { body: { a: 'b' } });
    const r = await t.request('GET', `${kv}/q?a=overridden&extra=1`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { a: 'b' });
    assert.deepEqual(r.body.warnings, ['Endpoint ignored these unrecognized parameters: [a extra]']);
  });

  it('ignores the query string of a write', async () => {
    const kv = await freshMount();
    await t.request('POST', `${kv}/wq?injected=1`, { body: { a: 'b' } });
    assert.deepEqual((await t.request('GET', `${kv}/wq`)).body.data, { a: 'b' });
  });

  it('answers 404 unsupported path for a key ending in a period', async () => {
    const kv = await freshMount();
    const w = await t.request('POST', `${kv}/trailing.`, { body: { a: 'b' } });
    assert.equal(w.status, 404);
    assert.deepEqual(w.body, { errors: ['1 error occurred:\n\t* unsupported path\n\n'] });
    assert.equal((await t.request('GET', `${kv}/trailing.`)).status, 404);
  });

  it("refuses a write to a path ending in '/'", async () => {
    const kv = await freshMount();
    const r = await t.request('POST', `${kv}/folder/`, { body: { a: 'b' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { errors: ["cannot write to a path ending in '/'"] });
  });

  it('keeps mounts apart', async () => {
    const a = await freshMount();
    const b = await freshMount();
    await t.request('POST', `${a}/same`, { body: { from: 'a' } });
    assert.equal((await t.request('GET', `${b}/same`)).status, 404);
  });
});
