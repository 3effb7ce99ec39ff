import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BlobServiceClient, type ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { freePort } from '../src/server/testing.js';
import {
  type BlobTargetOptions,
  blobTargetOptions,
  createBlobTarget,
} from '../src/sys/snapshot-targets/blob-target.js';
import { snapshotTargetCases } from '../src/sys/snapshot-targets/snapshot-target.case.js';
import type { SnapshotTarget } from '../src/sys/snapshot-targets/snapshot-target.js';
import { AZURITE_ACCOUNT, AZURITE_KEY, type Emulator, startAzurite } from './object-store-emulators.js';
import { automatedSnapshotCases } from './snapshot-object-store.case.js';

// Issue 17 point 5: storage_type beta-blob / azure-blob through @azure/storage-blob, against Azurite.
const CONTAINER = 'snaps';

let dir: string;
let azurite: Emulator;
let container: ContainerClient;
const endpoint = () => `http://127.0.0.1:${azurite.port}/${AZURITE_ACCOUNT}`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ward-blob-'));
  azurite = await startAzurite(join(dir, 'data'));
  const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY);
  container = new BlobServiceClient(endpoint(), credential).getContainerClient(CONTAINER);
  await container.create();
});
after(async () => {
  await azurite.stop();
  await rm(dir, { recursive: true, force: true });
});

const getBlob = (name: string) => container.getBlockBlobClient(name).downloadToBuffer();
const options = (pathPrefix: string): BlobTargetOptions => ({
  container: CONTAINER,
  pathPrefix,
  serviceUrl: endpoint(),
  sharedKey: { accountName: AZURITE_ACCOUNT, accountKey: AZURITE_KEY },
});

describe('Azure Blob snapshot target (Azurite)', () => {
  const folders = new Map<SnapshotTarget, string>();
  snapshotTargetCases(
    async () => {
      const folder = `case-${folders.size}/`;
      const target = createBlobTarget(options(folder));
      folders.set(target, folder);
      return target;
    },
    async (target, name) => (await getBlob(`${folders.get(target)}${name}`)).toString('utf8'),
    async () =>
      createBlobTarget({
        ...options('nowhere/'),
        serviceUrl: `http://127.0.0.1:${await freePort()}/${AZURITE_ACCOUNT}`,
      }),
  );
});

describe('automated snapshots to Azure Blob (Azurite)', () => {
  automatedSnapshotCases(() => ({
    emulator: azurite,
    configFields: () => ({
      storage_type: 'beta-blob',
      beta_container_name: CONTAINER,
      beta_account_name: AZURITE_ACCOUNT,
      beta_account_key: AZURITE_KEY,
      beta_endpoint: endpoint(),
    }),
    secretField: 'beta_account_key',
    badConfigs: [
      { beta_container_name: undefined },
      { path_prefix: 'no-trailing-slash' },
      { beta_account_name: undefined },
      { beta_endpoint: undefined, beta_account_name: undefined, beta_account_key: undefined },
      { beta_blob_environment: 'MOONCLOUD' },
      { beta_endpoint: 'not a url at all' },
      { alpha_s3_bucket: 'wrong family' },
    ],
    async list(prefix) {
      const names: string[] = [];
      for await (const blob of container.listBlobsFlat({ prefix })) names.push(blob.name);
      return names.sort();
    },
    get: getBlob,
    async put(name, body) {
      await container.getBlockBlobClient(name).upload(body, Buffer.byteLength(body));
    },
  }));
});

describe('Azure Blob service URL per cloud environment', () => {
  const serviceUrl = (specific: Record<string, string>) =>
    blobTargetOptions({
      interval: 60,
      retain: 1,
      path_prefix: 'p/',
      file_prefix: 'vault-snapshot',
      storage_type: 'azure-blob',
      specific: { azure_container_name: 'c', azure_account_name: 'acct', ...specific },
    }).serviceUrl;

  it('names the account in the cloud the environment says, public by default, either spelling, any case', () => {
    assert.equal(serviceUrl({}), 'https://acct.blob.core.windows.net');
    assert.equal(serviceUrl({ azure_blob_environment: 'AzureChinaCloud' }), 'https://acct.blob.core.chinacloudapi.cn');
    assert.equal(
      serviceUrl({ azure_blob_environment: 'BETAUSGOVERNMENTCLOUD' }),
      'https://acct.blob.core.usgovcloudapi.net',
    );
  });

  it('uses a configured endpoint as it is', () => {
    assert.equal(serviceUrl({ azure_endpoint: 'http://127.0.0.1:10000/acct/' }), 'http://127.0.0.1:10000/acct');
  });
});
