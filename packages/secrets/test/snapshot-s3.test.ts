import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../src/server/testing.js';
import { createS3Target, type S3TargetOptions } from '../src/sys/snapshot-targets/s3-target.js';
import { snapshotTargetCases } from '../src/sys/snapshot-targets/snapshot-target.case.js';
import type { SnapshotTarget } from '../src/sys/snapshot-targets/snapshot-target.js';
import { type Emulator, startS3rver } from './object-store-emulators.js';
import { automatedSnapshotCases } from './snapshot-object-store.case.js';

// Issue 17 point 5: storage_type alpha-s3 / aws-s3 through @aws-sdk/client-s3, against s3rver.
const BUCKET = 'snaps';
/** The one key pair s3rver accepts (it checks signatures). */
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let dir: string;
let s3: Emulator;
let client: S3Client;
const endpoint = () => `http://127.0.0.1:${s3.port}`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ward-s3-'));
  s3 = await startS3rver(join(dir, 'data'), [BUCKET]);
  client = new S3Client({
    region: 'us-east-1',
    endpoint: endpoint(),
    forcePathStyle: true,
    credentials: KEYS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});
after(async () => {
  client.destroy();
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

const getObject = async (key: string) => {
  const res = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
};
const options = (pathPrefix: string, extra: Partial<S3TargetOptions> = {}): S3TargetOptions => ({
  bucket: BUCKET,
  region: 'us-east-1',
  pathPrefix,
  endpoint: endpoint(),
  forcePathStyle: true,
  disableTls: true,
  credentials: KEYS,
  ...extra,
});

describe('S3 snapshot target (s3rver)', () => {
  const folders = new Map<SnapshotTarget, string>();
  snapshotTargetCases(
    async () => {
      const folder = `case-${folders.size}`;
      const target = createS3Target(options(folder));
      folders.set(target, folder);
      return target;
    },
    async (target, name) => (await getObject(`${folders.get(target)}/${name}`)).toString('utf8'),
    async () => createS3Target(options('nowhere', { endpoint: `http://127.0.0.1:${await freePort()}` })),
  );

  it('treats path_prefix with and without a trailing slash as the same folder, and ignores deeper ones', async () => {
    const stored = await createS3Target(options('same')).put('x-1.snap', (async function* () {})());
    assert.equal(stored.url, `${endpoint()}/${BUCKET}/same/x-1.snap`);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'same/deeper/x-2.snap', Body: 'no' }));
    assert.deepEqual(await createS3Target(options('same/')).list('x-'), [{ name: 'x-1.snap', size: 0 }]);
  });

  it('asks for SSE-S3 or SSE-KMS (with the named key) on every upload', async () => {
    const proxy = await recordingProxy(s3.port);
    try {
      const through = (encryption: S3TargetOptions['encryption']) =>
        createS3Target(options('sse', { endpoint: proxy.url, encryption }));
      await through({ kind: 'AES256' }).put('aes.snap', (async function* () {})());
      await through({ kind: 'aws:kms', kmsKeyId: 'alias/snapshots' }).put('kms.snap', (async function* () {})());
      const puts = proxy.seen.filter((r) => r.method === 'PUT');
      assert.deepEqual(
        puts.map((r) => [
          r.url.split('?')[0],
          r.headers['x-amz-server-side-encryption'],
          r.headers['x-amz-server-side-encryption-aws-kms-key-id'],
        ]),
        [
          [`/${BUCKET}/sse/aes.snap`, 'AES256', undefined],
          [`/${BUCKET}/sse/kms.snap`, 'aws:kms', 'alias/snapshots'],
        ],
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('automated snapshots to S3 (s3rver)', () => {
  automatedSnapshotCases(() => ({
    emulator: s3,
    configFields: () => ({
      storage_type: 'alpha-s3',
      alpha_s3_bucket: BUCKET,
      alpha_s3_region: 'us-east-1',
      alpha_s3_endpoint: `127.0.0.1:${s3.port}`,
      alpha_s3_disable_tls: true,
      alpha_s3_force_path_style: true,
      alpha_access_key_id: KEYS.accessKeyId,
      alpha_secret_access_key: KEYS.secretAccessKey,
    }),
    secretField: 'alpha_secret_access_key',
    badConfigs: [
      { alpha_s3_bucket: undefined },
      { alpha_s3_region: '' },
      { path_prefix: undefined },
      { alpha_secret_access_key: undefined },
      { alpha_access_key_id: undefined },
      { alpha_session_token: 'token-without-keys', alpha_access_key_id: undefined, alpha_secret_access_key: undefined },
      { alpha_s3_kms_key: 'alias/k' },
      { alpha_s3_enable_kms: true, alpha_s3_server_side_encryption: true },
      { alpha_s3_endpoint: 'ftp://127.0.0.1' },
      { alpha_s3_endpoint: 'http://[not a host' },
      { alpha_s3_disable_tls: 'maybe' },
      { beta_container_name: 'wrong family' },
      { local_max_space: 1000 },
    ],
    async list(prefix) {
      const res = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
      return (res.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    // The SDK's default chain: the environment's keys (the config names none).
    ambient: {
      env: { AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey },
      omit: ['alpha_access_key_id', 'alpha_secret_access_key'],
    },
    get: getObject,
    async put(name, body) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: name, Body: body }));
    },
  }));
});

/** A pass-through HTTP proxy that records each request's method, path and headers. */
async function recordingProxy(port: number) {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
