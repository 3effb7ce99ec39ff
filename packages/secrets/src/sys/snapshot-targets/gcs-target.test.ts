import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Storage } from '@google-cloud/storage';
import { type FakeGcs, startFakeGcs } from '../../../test/fakes/gcs.js';
import { UpstreamError } from '../../logical/errors.js';
import { createGcsTarget, type GcsTargetSettings } from './gcs-target.js';
import { snapshotTargetCases } from './snapshot-target.case.js';
import type { SnapshotTarget } from './snapshot-target.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

/** The URL of a port nothing listens on. */
async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function serviceAccount(email: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    email,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyJson: JSON.stringify({
      type: 'service_account',
      project_id: 'p',
      client_email: email,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }),
  };
}

// Issue 17: gamma-gcs through @google-cloud/storage, against a fake speaking the JSON API.
describe('GCS snapshot target', () => {
  const account = serviceAccount('snapshots@p.iam.gserviceaccount.com');
  let gcs: FakeGcs;
  let bucketCount = 0;
  before(async () => {
    gcs = await startFakeGcs({ buckets: [], serviceAccount: account, pageSize: 2 });
  });
  after(() => gcs.close());

  /** A target over a new, empty bucket. */
  const target = (o: Partial<GcsTargetSettings> = {}) => {
    const bucket = `bucket-${bucketCount++}`;
    gcs.addBucket(bucket);
    return createGcsTarget({
      bucket,
      pathPrefix: 'ward/snaps/',
      serviceAccountKey: '',
      endpoint: gcs.endpoint,
      isTlsDisabled: false,
      ...o,
    });
  };
  const buckets = new Map<SnapshotTarget, string>();

  snapshotTargetCases(
    async () => {
      const bucket = `bucket-${bucketCount}`;
      const made = target();
      buckets.set(made, bucket);
      return made;
    },
    async (made, name) => {
      const file = new Storage({ apiEndpoint: gcs.endpoint })
        .bucket(buckets.get(made) ?? '')
        .file(`ward/snaps/${name}`);
      return (await file.download())[0].toString();
    },
    async () => target({ endpoint: await closedEndpoint() }),
  );

  it('names objects under path_prefix, answers gs:// URLs and lists across pages', async () => {
    const bucket = `bucket-${bucketCount}`;
    const t = target({ pathPrefix: '/nested/' });
    for (const n of ['s-3.snap', 's-1.snap', 's-2.snap']) await t.put(n, chunks(n));
    const stored = await t.put('s-4.snap', chunks('four'));
    assert.equal(stored.url, `gs://${bucket}/nested/s-4.snap`);
    assert.deepEqual(gcs.names(bucket), ['nested/s-1.snap', 'nested/s-2.snap', 'nested/s-3.snap', 'nested/s-4.snap']);
    assert.deepEqual(
      (await t.list('s-')).map((o) => o.name),
      ['s-1.snap', 's-2.snap', 's-3.snap', 's-4.snap'],
    );
  });

  it('signs every metadata request with the service-account key; a key the bucket does not know is refused', async () => {
    const before = gcs.verifiedRequests();
    const t = target({
      serviceAccountKey: account.keyJson,
      endpoint: gcs.endpoint.replace('http://', ''),
      isTlsDisabled: true,
    });
    await t.put('k-1.snap', chunks('keyed'));
    assert.deepEqual(await t.list('k-'), [{ name: 'k-1.snap', size: 5 }]);
    await t.delete('k-1.snap');
    assert.ok(gcs.verifiedRequests() >= before + 2);

    const stranger = serviceAccount(account.email);
    const refused = target({ serviceAccountKey: stranger.keyJson });
    const verifiedBefore = gcs.verifiedRequests();
    await assert.rejects(refused.list('k-'), UpstreamError);
    assert.equal(gcs.verifiedRequests(), verifiedBefore);
  });

  // Uploads are not retried by the SDK (see put): a failing service fails the attempt, cleanly.
  it('fails an upload the service answers with 503 and leaves nothing; the next one succeeds', async () => {
    const t = target();
    gcs.failUploads(100);
    await assert.rejects(t.put('busy-1.snap', chunks('x')), UpstreamError);
    gcs.failUploads(0);
    assert.deepEqual(await t.list('busy-'), []);
    await t.put('busy-2.snap', chunks('y'));
    assert.deepEqual(await t.list('busy-'), [{ name: 'busy-2.snap', size: 1 }]);
  });

  it('fails with an upstream error when the bucket does not exist or the service is down', async () => {
    await assert.rejects(target({ bucket: 'missing' }).put('x.snap', chunks('x')), UpstreamError);
    await assert.rejects(target({ bucket: 'missing' }).list('x'), UpstreamError);
    const t = target();
    await gcs.close();
    try {
      await assert.rejects(t.put('down.snap', chunks('x')), UpstreamError);
    } finally {
      await gcs.restart();
    }
    assert.deepEqual(await t.list('down'), []);
  });
});
