import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { OAuth2Client } from 'google-auth-library';
import { type FakeGcpKms, startFakeGcpKms } from '../../../../test/fakes/gcp-kms.js';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { GcpKmsSeal, type GcpKmsSealOptions } from './gcp-kms-seal.js';

// Issue 29 point 4: `seal "gcpckms"` through @google-cloud/kms (REST) against the Cloud KMS fake.

const RING = 'projects/p/locations/global/keyRings/ring';

// Google sign-in is outside Cloud KMS's protocol; the SDK takes an auth client holding a token.
function authClient() {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  return client as unknown as GcpKmsSealOptions['authClient'];
}

describe('seal "gcpckms" (gammackms)', () => {
  let kms: FakeGcpKms;
  before(async () => {
    kms = await startFakeGcpKms();
    kms.rotateSymmetricKey(RING, 'ward-unseal');
  });
  after(() => kms.close());
  const seal = (cryptoKey = 'ward-unseal') =>
    new GcpKmsSeal('gcpckms', {
      project: 'p',
      region: 'global',
      keyRing: 'ring',
      cryptoKey,
      endpoint: kms.endpoint,
      authClient: authClient(),
    });

  sealWrapperCases({
    wrapper: async () => seal(),
    rotate: async () => {
      kms.rotateSymmetricKey(RING, 'ward-unseal');
      return seal();
    },
  });

  it('answers an UpstreamError for a missing key', async () => {
    await assert.rejects(seal('absent').wrap(randomBytes(32)), UpstreamError);
  });
});
