import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { request } from '../src/server/testing.js';
import type { SnapshotStatus } from '../src/sys/snapshot-auto/runner.js';
import { type FakeGcs, startFakeGcs } from './fakes/gcs.js';
import { startDevWard, type WardProcess } from './ward-process.js';

const BUCKET = 'ward-snapshots';
const NAME = /^ward\/auto-\d{19}\.snap$/;

type Status = Omit<SnapshotStatus, 'last_attempt_ms'>;

// Issue 17: automated snapshots to GCS (`gamma-gcs`) from the real `bin/ward`, through
// @google-cloud/storage, to a fake speaking the JSON API over a socket.
describe('automated snapshots to GCS through the real server', () => {
  let gcs: FakeGcs;
  let ward: WardProcess;
  let url = '';
  const token = 'root';
  const email = 'ward@project.iam.gserviceaccount.com';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyJson = JSON.stringify({
    type: 'service_account',
    client_email: email,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });
  before(async () => {
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    gcs = await startFakeGcs({ buckets: [BUCKET], serviceAccount: { email, publicKeyPem } });
    ({ ward, url } = await startDevWard(token));
  });
  after(async () => {
    ward.child.kill('SIGKILL');
    await gcs.close();
  });

  const status = async () =>
    (await request(url, 'GET', 'sys/storage/raft/snapshot-auto/status/gcs', { token })).body.data as Status;
  /** Polls the status until `accept` holds (the schedule runs on the server's real clock). */
  async function statusWhen(accept: (s: Status) => boolean, what: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await status();
      if (accept(s)) return s;
      if (Date.now() > deadline) assert.fail(`status never showed ${what}: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('writes <file_prefix>-<timestamp>.snap objects every interval and keeps the retain newest', async () => {
    await request(url, 'POST', 'secret/data/app', { token, body: { data: { v: 'snapshotted' } } });
    const config = {
      interval: 1,
      retain: 2,
      path_prefix: 'ward/',
      file_prefix: 'auto',
      storage_type: 'gamma-gcs',
      gamma_gcs_bucket: BUCKET,
      gamma_endpoint: gcs.endpoint.replace('http://', ''),
      gamma_disable_tls: true,
      gamma_service_account_key: keyJson,
    };
    const written = await request(url, 'POST', 'sys/storage/raft/snapshot-auto/config/gcs', { token, body: config });
    assert.equal(written.status, 204, JSON.stringify(written.body));
    const read = await request(url, 'GET', 'sys/storage/raft/snapshot-auto/config/gcs', { token });
    const { gamma_service_account_key: _, ...shown } = config;
    assert.deepEqual(read.body.data, shown);

    const first = await statusWhen((s) => s.snapshot_url !== '', 'a snapshot');
    assert.equal(first.last_snapshot_error, '');
    assert.match(first.snapshot_url, new RegExp(`^gs://${BUCKET}/ward/auto-\\d{19}\\.snap$`));
    assert.match(first.last_snapshot_start, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(first.last_snapshot_end, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Two more runs: three made, the oldest deleted.
    const second = await statusWhen((s) => s.snapshot_url > first.snapshot_url, 'a second snapshot');
    await statusWhen((s) => s.snapshot_url > second.snapshot_url, 'a third snapshot');
    const names = gcs.names(BUCKET);
    assert.equal(names.length, 2, names.join(' '));
    assert.ok(
      names.every((n) => NAME.test(n)),
      names.join(' '),
    );
    assert.ok(!names.includes(first.snapshot_url.slice(`gs://${BUCKET}/`.length)));
    assert.ok(gcs.verifiedRequests() > 0, 'requests signed with the service-account key');

    // The object is the gzip tar the manual endpoint gives: it opens and holds the sums.
    const tar = gunzipSync(gcs.read(BUCKET, names[1] ?? '') ?? Buffer.alloc(0)).toString('latin1');
    assert.ok(tar.includes('SHA256SUMS.sealed'));
  });

  it('records the error while GCS is down and clears it once it is back', async () => {
    const before = await status();
    await gcs.close();
    let failed: Status;
    try {
      failed = await statusWhen((s) => s.last_snapshot_error !== '', 'an error');
    } finally {
      await gcs.restart();
    }
    assert.match(failed.last_snapshot_error, /gcs/);
    // The last good snapshot is still the one reported.
    assert.ok(failed.snapshot_url >= before.snapshot_url);
    assert.ok(failed.last_snapshot_start >= before.last_snapshot_start);

    const recovered = await statusWhen(
      (s) => s.last_snapshot_error === '' && s.snapshot_url > failed.snapshot_url,
      'recovery',
    );
    assert.equal(recovered.last_snapshot_url, recovered.snapshot_url);
    assert.equal(gcs.names(BUCKET).length, 2);
  });
});
