import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { FakeClock } from '@ward/base';
import { request, startTestServer, type TestServer } from '../src/server/testing.js';
import type { Emulator } from './object-store-emulators.js';
import { startWard, type WardProcess } from './ward-process.js';

/** A bucket or container in a running emulator, reached through the provider's own SDK. */
export interface ObjectStoreUnderTest {
  emulator: Emulator;
  /** `storage_type` and the provider's fields of a config writing to this store. */
  configFields(): Record<string, unknown>;
  /** The field a read must never return (the key written in `configFields`). */
  secretField: string;
  /** Changes to `configFields` that make a config that cannot work (each a 400). */
  badConfigs: Record<string, unknown>[];
  /** For `bin/ward`: credentials from its environment (`env`) instead of the config's `omit` fields. */
  ambient?: { env: Record<string, string>; omit: string[] };
  /** Names of the objects whose names start with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  get(name: string): Promise<Buffer>;
  put(name: string, body: string): Promise<void>;
}

const SNAPSHOT = /^auto\/ward-\d{19}\.snap$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/**
 * Automated snapshots to an object store, end to end: the config over HTTP, the schedule on a fake
 * clock (in-process server), the emulator stopped and restarted, and `bin/ward` on its own clock
 * taking a snapshot that restores through `POST sys/storage/raft/snapshot`.
 */
export function automatedSnapshotCases(store: () => ObjectStoreUnderTest): void {
  const clock = new FakeClock('2026-01-01T00:00:00Z');
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ clock });
  });
  after(() => t.stop());

  /** Moves the fake clock second by second, letting each scheduled run finish. */
  async function tickFor(seconds: number) {
    for (let i = 0; i < seconds; i++) {
      clock.advance(1_000);
      await t.server.core.scheduler.settled();
    }
  }
  const config = (extra: Record<string, unknown> = {}) => ({
    interval: '10s',
    retain: 2,
    path_prefix: 'auto/',
    file_prefix: 'ward',
    ...store().configFields(),
    ...extra,
  });
  const status = async (name: string) =>
    (await t.request('GET', `sys/storage/raft/snapshot-auto/status/${name}`)).body.data;

  it('stores the config and never reads its key back', async () => {
    const res = await t.request('POST', 'sys/storage/raft/snapshot-auto/config/obj', { body: config() });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const read = (await t.request('GET', 'sys/storage/raft/snapshot-auto/config/obj')).body.data;
    assert.equal(read.storage_type, store().configFields().storage_type);
    assert.equal(read.interval, 10);
    assert.equal(read[store().secretField], undefined);
  });

  it('refuses configs that cannot work with 400 and stores nothing', async () => {
    for (const bad of store().badConfigs) {
      const res = await t.request('POST', 'sys/storage/raft/snapshot-auto/config/bad', { body: config(bad) });
      assert.equal(res.status, 400, JSON.stringify(bad));
    }
    assert.equal((await t.request('GET', 'sys/storage/raft/snapshot-auto/config/bad')).status, 404);
  });

  it('snapshots every interval, keeps the retain newest it made, and records the status', async () => {
    // Not made by the config (no 19-digit time): retention leaves it alone.
    await store().put('auto/ward-manual.snap', 'mine');
    await tickFor(1);
    const first = await status('obj');
    assert.equal(first.last_snapshot_error, '');
    assert.match(first.last_snapshot_url, /\/auto\/ward-\d{19}\.snap$/);
    assert.equal(first.snapshot_url, first.last_snapshot_url);
    assert.equal(first.snapshot_start, first.last_snapshot_start);
    assert.match(first.last_snapshot_start, RFC3339);
    assert.match(first.last_snapshot_end, RFC3339);

    await tickFor(35);
    const names = await store().list('auto/');
    assert.deepEqual(
      names.filter((n) => !SNAPSHOT.test(n)),
      ['auto/ward-manual.snap'],
    );
    const made = names.filter((n) => SNAPSHOT.test(n));
    assert.equal(made.length, 2, names.join(' '));
    assert.ok((await status('obj')).snapshot_url.endsWith(made[1] as string));
  });

  it('records the error of an attempt while the store is down, and clears it on the next success', async () => {
    const before = await status('obj');
    await store().emulator.stop();
    await tickFor(10);
    const failed = await status('obj');
    assert.notEqual(failed.last_snapshot_error, '');
    assert.notEqual(failed.last_snapshot_start, before.last_snapshot_start);
    assert.equal(failed.snapshot_url, before.snapshot_url, 'the last good snapshot is still named');
    assert.equal(failed.snapshot_start, before.snapshot_start);

    await store().emulator.restart();
    await tickFor(10);
    const recovered = await status('obj');
    assert.equal(recovered.last_snapshot_error, '');
    assert.notEqual(recovered.snapshot_url, before.snapshot_url);
    assert.equal(recovered.snapshot_url, recovered.last_snapshot_url);
    assert.equal((await t.request('DELETE', 'sys/storage/raft/snapshot-auto/config/obj')).status, 204);
  });

  const ambient = () => (store().ambient ? ', credentials from its environment,' : '');
  it(`bin/ward on its own clock${ambient()}: snapshots, retention, failure and recovery, and a restore`, async () => {
    const args = ['server', '-dev', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0'];
    const ward = startWard(args, store().ambient?.env);
    try {
      const [, url] = (await ward.waitFor(/listening: url=(http:\/\/\S+)/)) as unknown as [string, string];
      const call = (method: string, path: string, body?: unknown) =>
        request(url, method, path, { token: 'root', body });
      const status = async () => (await call('GET', 'sys/storage/raft/snapshot-auto/status/bin')).body.data;
      const until = (what: string, test: (s: Record<string, string>) => boolean) => waitUntil(what, status, test, ward);
      await call('POST', 'secret/data/kept', { data: { value: 'before' } });
      const body: Record<string, unknown> = config({ interval: 1, path_prefix: 'bin/', file_prefix: 'ward' });
      for (const field of store().ambient?.omit ?? []) delete body[field];
      assert.equal((await call('POST', 'sys/storage/raft/snapshot-auto/config/bin', body)).status, 204);

      await until('a snapshot', (s) => s.snapshot_url !== '');
      const snapshot = await fetchNewest(store(), 'bin/');
      // Retention (retain 2): between attempts, exactly two of the config's snapshots are stored.
      await waitUntil(
        'retention',
        () => store().list('bin/'),
        (names) => names.length === 2,
        ward,
      );

      await store().emulator.stop();
      const failed = await until('a failed attempt', (s) => s.last_snapshot_error !== '');
      assert.match(failed.snapshot_url ?? '', /\/bin\/ward-\d{19}\.snap$/, 'the last good snapshot is still named');
      await store().emulator.restart();
      await until('recovery', (s) => s.last_snapshot_error === '' && s.snapshot_url !== failed.snapshot_url);
      assert.equal((await call('DELETE', 'sys/storage/raft/snapshot-auto/config/bin')).status, 204);

      await call('POST', 'secret/data/kept', { data: { value: 'after' } });
      await call('POST', 'secret/data/later', { data: { value: 'after' } });
      const restored = await fetch(`${url}/v1/sys/storage/raft/snapshot`, {
        method: 'POST',
        headers: { 'X-Vault-Token': 'root' },
        body: new Blob([new Uint8Array(snapshot)]),
      });
      assert.equal(restored.status, 204, await restored.text());
      assert.equal((await call('GET', 'secret/data/kept')).body.data.data.value, 'before');
      assert.equal((await call('GET', 'secret/data/later')).status, 404);
    } finally {
      ward.child.kill('SIGKILL');
      await ward.exited;
    }
  });
}

/** The newest snapshot under `folder`; retention may delete one between the list and the read, so retry. */
async function fetchNewest(store: ObjectStoreUnderTest, folder: string): Promise<Buffer> {
  let failure: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const newest = (await store.list(folder)).filter((n) => /\/ward-\d{19}\.snap$/.test(n)).at(-1);
    if (!newest) throw new Error(`no snapshot under ${folder}`);
    try {
      return await store.get(newest);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

/** Polls `read` (the server runs on its own one-second schedule) until `test` holds; the last value. */
async function waitUntil<T>(what: string, read: () => Promise<T>, test: (value: T) => boolean, ward: WardProcess) {
  let value = await read();
  for (let i = 0; i < 300 && !test(value); i++) {
    await delay(100);
    value = await read();
  }
  if (!test(value)) throw new Error(`no ${what} after 30 s: ${JSON.stringify(value)}\n${ward.output()}`);
  return value;
}
