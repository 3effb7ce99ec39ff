import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Shared setup of the KV v2 over HTTP tests (kv-v2-*.test.ts): shapes, statuses and exact
// messages per the secrets-core reference §1 and §8.2 (issue 2, point 7).

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
export const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
export const UNSUPPORTED_PATH = '1 error occurred:\n\t* unsupported path\n\n';

/** An RFC3339 UTC string denoting exactly `ms`. */
export function assertTime(value: unknown, ms: number, what = 'time') {
  assert.equal(typeof value, 'string', `${what} is a string`);
  assert.match(value as string, RFC3339, `${what} is RFC3339`);
  assert.equal(Date.parse(value as string), ms, `${what} is the clock's time`);
}

export function assertEnvelope(body: Record<string, unknown>) {
  assert.match(String(body.request_id), UUID);
  assert.equal(body.lease_id, '');
  assert.equal(body.lease_duration, 0);
  assert.equal(body.renewable, false);
  assert.equal(body.wrap_info, null);
  assert.equal(body.auth, null);
}

/** What a KV v2 suite works with; everything but `clock` is usable once the suite's `before` ran. */
export interface KvV2Server {
  /** Requests to the suite's server (root token unless told otherwise). */
  t: Pick<TestServer, 'request'>;
  /** The server's clock, starting at 2024-01-01T00:00:00Z. */
  clock: FakeClock;
  /** A fresh KV v2 mount, so each test starts from empty storage and default config. */
  freshMount(body?: Record<string, unknown>): Promise<string>;
  /** Writes `data` (and `options`) to a data/ path, asserts a 200 and returns the version metadata. */
  write(
    path: string,
    data: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): Promise<{ version: number; created_time: string; deletion_time: string }>;
}

/**
 * Registers `before`/`after` hooks in the calling `describe` that start one test server on a
 * fake clock and stop it, and returns the helpers the tests of that suite use.
 */
export function kvV2Server(): KvV2Server {
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  let server: TestServer | undefined;
  let mounts = 0;

  const t: KvV2Server['t'] = {
    request: (method, path, options) => {
      if (!server) throw new Error('the KV v2 test server is not running (used outside a test?)');
      return server.request(method, path, options);
    },
  };

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
    server = await startTestServer({ clock });
  });
  after(() => server?.stop());

  return { t, clock, freshMount, write };
}
