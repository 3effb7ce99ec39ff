/** Where automated snapshots go: local disk, S3, Azure Blob Storage, Google Cloud Storage. @module */
import {
  DeleteObjectCommand,
  paginateListObjectsV2,
  S3Client,
  type S3ClientConfig,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { InvalidRequestError } from '../../logical/errors.js';
import { type SnapshotConfig, specificValue } from '../snapshot-auto/config.js';
import { byName, endpointUrl, objectPrefix, specificText, uploadFrom } from './object-store.js';
import type { SnapshotTarget, StoredSnapshot } from './snapshot-target.js';

/** What an `alpha-s3` / `aws-s3` config says about its bucket, already validated. */
export interface S3TargetOptions {
  bucket: string;
  region: string;
  /** `path_prefix`: the "folder" the objects go in; a trailing `/` is optional. */
  pathPrefix: string;
  /** Static credentials; the SDK's default chain (environment, profile, instance role) when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** A non-AWS implementation (MinIO, s3rver), as a URL. */
  endpoint?: string;
  disableTls?: boolean;
  forcePathStyle?: boolean;
  /** SSE-S3 (`AES256`) or SSE-KMS (`aws:kms`, with the account's default key unless `kmsKeyId`). */
  encryption?: { kind: 'AES256' } | { kind: 'aws:kms'; kmsKeyId?: string };
}

/**
 * The target options an S3 config stands for; a 400 for combinations that cannot work
 * (half a key pair, a KMS key without KMS, an endpoint that is not a URL).
 */
export function s3TargetOptions(config: SnapshotConfig): S3TargetOptions {
  const text = (suffix: string) => specificText(config, suffix);
  const flag = (suffix: string) => specificValue(config, suffix) === true;
  const accessKeyId = text('access_key_id');
  const secretAccessKey = text('secret_access_key');
  const sessionToken = text('session_token');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new InvalidRequestError(
      'access_key_id and secret_access_key go together: give both, or neither for ambient credentials',
    );
  }
  if (sessionToken !== undefined && accessKeyId === undefined) {
    throw new InvalidRequestError('session_token needs access_key_id and secret_access_key');
  }
  const kmsKeyId = text('s3_kms_key');
  if (kmsKeyId !== undefined && !flag('s3_enable_kms')) {
    throw new InvalidRequestError('s3_kms_key applies only when s3_enable_kms is true');
  }
  const disableTls = flag('s3_disable_tls');
  const endpoint = text('s3_endpoint');
  const options: S3TargetOptions = {
    bucket: text('s3_bucket') ?? '',
    region: text('s3_region') ?? '',
    pathPrefix: config.path_prefix,
    disableTls,
    forcePathStyle: flag('s3_force_path_style'),
  };
  if (endpoint !== undefined) options.endpoint = endpointUrl('s3_endpoint', endpoint, disableTls);
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    options.credentials = sessionToken
      ? { accessKeyId, secretAccessKey, sessionToken }
      : { accessKeyId, secretAccessKey };
  }
  if (flag('s3_server_side_encryption')) options.encryption = { kind: 'AES256' };
  if (flag('s3_enable_kms')) options.encryption = kmsKeyId ? { kind: 'aws:kms', kmsKeyId } : { kind: 'aws:kms' };
  return options;
}

/** Parts of a multipart upload: the SDK's minimum, so at most two (10 MiB) are held in memory. */
const PART_SIZE = 5 * 1024 * 1024;

/** `storage_type "alpha-s3"`: objects in an S3 bucket (or an S3-compatible server), uploaded as a stream. */
export function createS3Target(options: S3TargetOptions): SnapshotTarget {
  const client = new S3Client(clientConfig(options));
  const folder = objectPrefix(options.pathPrefix);
  const sse = sseParams(options.encryption);
  return {
    async put(name, body) {
      const { result, size } = await uploadFrom(body, (stream) => {
        const upload = new Upload({
          client,
          params: { Bucket: options.bucket, Key: folder + name, Body: stream, ...sse },
          partSize: PART_SIZE,
          queueSize: 2,
          // A failed multipart upload is aborted, so no parts (and no object) are left behind.
          leavePartsOnError: false,
        });
        return upload.done();
      });
      return { url: result.Location ?? `s3://${options.bucket}/${folder}${name}`, size };
    },
    async list(namePrefix) {
      const found: StoredSnapshot[] = [];
      const pages = paginateListObjectsV2({ client }, { Bucket: options.bucket, Prefix: folder + namePrefix });
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(folder.length) ?? '';
          // Objects in deeper "folders" are not this config's.
          if (name !== '' && !name.includes('/')) found.push({ name, size: object.Size ?? 0 });
        }
      }
      return found.sort(byName);
    },
    async delete(name) {
      // S3 answers a delete of a missing key with success.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: folder + name }));
    },
    close() {
      client.destroy();
    },
  };
}

function clientConfig(options: S3TargetOptions): S3ClientConfig {
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle === true,
    tls: options.disableTls !== true,
    // Snapshot objects are written and deleted, never retried for long: fail the attempt, the next runs later.
    maxAttempts: 3,
  };
  if (options.credentials) config.credentials = options.credentials;
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    // S3-compatible servers do not all take the SDK's default streamed checksums (aws-chunked
    // framing with a trailing CRC32); s3rver stores that framing as the object's content.
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  return config;
}

function sseParams(encryption: S3TargetOptions['encryption']): {
  ServerSideEncryption?: ServerSideEncryption;
  SSEKMSKeyId?: string;
} {
  if (!encryption) return {};
  if (encryption.kind === 'AES256') return { ServerSideEncryption: 'AES256' };
  return encryption.kmsKeyId
    ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: encryption.kmsKeyId }
    : { ServerSideEncryption: 'aws:kms' };
}
