import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TokenCredential } from '@azure/identity';
import { type FakeAzureKeyVault, startFakeAzureKeyVault } from '../../../test/fakes/azure-key-vault.js';
import { UpstreamError } from '../../logical/errors.js';
import { AzureKeyVaultBackend, type AzureKeyVaultSettings } from './azure-key-vault.js';
import { managedKeyBackendCases } from './managed-key-backend.case.js';

let vault: FakeAzureKeyVault;
before(async () => {
  vault = await startFakeAzureKeyVault();
  vault.addKey('rsa', 'RSA');
  vault.addKey('ec', 'EC');
});
after(() => vault.close());

// Microsoft Entra sign-in is outside Key Vault's protocol; the SDK takes any TokenCredential.
const credential: TokenCredential = {
  getToken: async () => ({ token: 'fake-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};
const backend = (o: Partial<AzureKeyVaultSettings>) =>
  new AzureKeyVaultBackend({
    tenantId: 'tenant',
    clientId: 'client',
    clientSecret: 'secret',
    storeName: 'store',
    keyName: 'rsa',
    resource: 'vault.azure.net',
    endpoint: vault.url,
    keyBits: 2048,
    allowGenerateKey: false,
    credential,
    ...o,
  });

describe('betakeyvault managed keys through @azure/keyvault-keys against a protocol-level fake', () => {
  managedKeyBackendCases({
    rsa2048: async () => backend({}),
    ecP256: async () => backend({ keyName: 'ec' }),
    rsaHashes: ['sha2-256', 'sha2-384', 'sha2-512'],
  });

  it('creates a missing RSA key when allowed, and answers a missing key otherwise with 502', async () => {
    const made = await backend({ keyName: 'made', keyBits: 3072, allowGenerateKey: true }).publicKey();
    assert.equal(made.asymmetricKeyDetails?.modulusLength, 3072);
    await assert.rejects(
      backend({ keyName: 'absent' }).publicKey(),
      (err: Error) => err instanceof UpstreamError && err.message.includes('KeyNotFound'),
    );
  });
});
