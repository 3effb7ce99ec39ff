import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { TokenCredential } from '@azure/identity';
import { type FakeAzureKeyVault, startFakeAzureKeyVault } from '../../../../test/fakes/azure-key-vault.js';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { AzureKeyVaultSeal } from './azure-key-vault-seal.js';

// Issue 29 point 4: `seal "azurekeyvault"` through @azure/keyvault-keys against the Key Vault fake.

// Microsoft Entra sign-in is outside Key Vault's protocol; the SDK takes any TokenCredential.
const credential: TokenCredential = {
  getToken: async () => ({ token: 'fake-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};

describe('seal "azurekeyvault" (betakeyvault)', () => {
  let vault: FakeAzureKeyVault;
  before(async () => {
    vault = await startFakeAzureKeyVault();
    vault.addKey('ward-unseal', 'RSA');
  });
  after(() => vault.close());
  const seal = (keyName = 'ward-unseal') =>
    new AzureKeyVaultSeal('azurekeyvault', {
      tenantId: 'tenant',
      clientId: 'client',
      clientSecret: 'secret',
      vaultName: 'vault',
      keyName,
      resource: 'vault.azure.net',
      endpoint: vault.url,
      credential,
    });

  sealWrapperCases({
    wrapper: async () => seal(),
    // A new version of the key; the old version still unwraps.
    rotate: async () => {
      vault.addKey('ward-unseal', 'RSA');
      return seal();
    },
  });

  it('answers an UpstreamError for a missing key', async () => {
    await assert.rejects(seal('absent').wrap(randomBytes(32)), UpstreamError);
  });
});
