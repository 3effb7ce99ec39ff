import { DefaultAzureCredential } from '@azure/identity';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { InvalidRequestError } from '../../logical/errors.js';
import type { SnapshotConfig } from '../snapshot-auto/config.js';
import { byName, endpointUrl, objectPrefix, specificText, uploadFrom } from './object-store.js';
import type { SnapshotTarget, StoredSnapshot } from './snapshot-target.js';

/** What a `beta-blob` / `azure-blob` config says about its container, already validated. */
export interface BlobTargetOptions {
  container: string;
  /** `path_prefix`, ending in `/`: the "folder" of the blobs. */
  pathPrefix: string;
  /** The account's blob service URL (`https://<account>.blob.<suffix>`, or a configured endpoint). */
  serviceUrl: string;
  /** Shared-key credentials; the ambient identity (environment, managed identity, CLI login) when absent. */
  sharedKey?: { accountName: string; accountKey: string };
}

/** Blob storage DNS suffix of each cloud, under the established (`AZURE…`) and the spec's (`BETA…`) names. */
const CLOUD_SUFFIX = new Map<string, string>([
  ['PUBLICCLOUD', 'core.windows.net'],
  ['USGOVERNMENTCLOUD', 'core.usgovcloudapi.net'],
  ['CHINACLOUD', 'core.chinacloudapi.cn'],
  ['GERMANCLOUD', 'core.cloudapi.de'],
]);

/** Block size of the streamed upload; at most two are held in memory. */
const BLOCK_SIZE = 4 * 1024 * 1024;

/** The target options a Blob config stands for; a 400 for what cannot work (unknown cloud, no account). */
export function blobTargetOptions(config: SnapshotConfig): BlobTargetOptions {
  const text = (suffix: string) => specificText(config, suffix);
  const accountName = text('account_name');
  const accountKey = text('account_key');
  const endpoint = text('endpoint');
  if (accountKey !== undefined && accountName === undefined) {
    throw new InvalidRequestError('account_key needs account_name');
  }
  const suffix = cloudSuffix(text('blob_environment'));
  if (endpoint === undefined && accountName === undefined) {
    throw new InvalidRequestError('account_name is required unless an endpoint is given');
  }
  const serviceUrl =
    endpoint !== undefined ? endpointUrl('endpoint', endpoint, false) : `https://${accountName}.blob.${suffix}`;
  const options: BlobTargetOptions = {
    container: text('container_name') ?? '',
    pathPrefix: config.path_prefix,
    serviceUrl,
  };
  if (accountName !== undefined && accountKey !== undefined) options.sharedKey = { accountName, accountKey };
  return options;
}

function cloudSuffix(environment: string | undefined): string {
  if (environment === undefined) return CLOUD_SUFFIX.get('PUBLICCLOUD') as string;
  const upper = environment.toUpperCase();
  const family = upper.startsWith('AZURE') ? 'AZURE' : upper.startsWith('BETA') ? 'BETA' : '';
  const suffix = CLOUD_SUFFIX.get(upper.slice(family.length));
  if (family === '' || suffix === undefined) {
    throw new InvalidRequestError(
      `blob_environment "${environment}" is not one of AZUREPUBLICCLOUD, AZUREUSGOVERNMENTCLOUD, AZURECHINACLOUD, AZUREGERMANCLOUD (or the BETA… names)`,
    );
  }
  return suffix;
}

/** `storage_type "beta-blob"`: block blobs in an Azure Storage container, uploaded as a stream. */
export function createBlobTarget(options: BlobTargetOptions): SnapshotTarget {
  const credential = options.sharedKey
    ? new StorageSharedKeyCredential(options.sharedKey.accountName, options.sharedKey.accountKey)
    : new DefaultAzureCredential();
  // The SDK's default retries a refused connection for about 30 s; an attempt should fail fast and
  // say why in the status, as the next one comes an `interval` later anyway.
  const retryOptions = { maxTries: 3, retryDelayInMs: 500, maxRetryDelayInMs: 2_000 };
  const service = new BlobServiceClient(options.serviceUrl, credential, { retryOptions });
  const container = service.getContainerClient(options.container);
  const folder = objectPrefix(options.pathPrefix);
  return {
    async put(name, body) {
      const blob = container.getBlockBlobClient(folder + name);
      // Blocks are staged, then committed in one request once the source has ended: a source that
      // fails part-way leaves only uncommitted blocks, which are not a blob and expire by themselves.
      const { size } = await uploadFrom(body, (stream) => blob.uploadStream(stream, BLOCK_SIZE, 2));
      return { url: blob.url, size };
    },
    async list(namePrefix) {
      const found: StoredSnapshot[] = [];
      for await (const item of container.listBlobsFlat({ prefix: folder + namePrefix })) {
        const name = item.name.slice(folder.length);
        if (name !== '' && !name.includes('/')) found.push({ name, size: item.properties.contentLength ?? 0 });
      }
      return found.sort(byName);
    },
    async delete(name) {
      await container.getBlockBlobClient(folder + name).deleteIfExists();
    },
  };
}
