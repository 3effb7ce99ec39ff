import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type FakeAwsKms, startFakeAwsKms } from '../../../../test/fakes/aws-kms.js';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { AwsKmsSeal } from './aws-kms-seal.js';

// Issue 29 point 4: `seal "awskms"` through the official SDK against the KMS wire-protocol fake.

describe('seal "awskms" (alphakms)', () => {
  let kms: FakeAwsKms;
  before(async () => {
    kms = await startFakeAwsKms();
    kms.addKey('SYMMETRIC_DEFAULT', 'alias/ward-unseal');
  });
  after(() => kms.close());
  const seal = (kmsKeyId = 'alias/ward-unseal') =>
    new AwsKmsSeal('awskms', {
      region: 'us-east-1',
      accessKey: 'AKIDEXAMPLE',
      secretKey: 'example-secret',
      kmsKeyId,
      endpoint: kms.endpoint,
    });

  sealWrapperCases({
    wrapper: async () => seal(),
    // The alias now names a new key; the old one still decrypts what it encrypted.
    rotate: async () => {
      kms.addKey('SYMMETRIC_DEFAULT', 'alias/ward-unseal');
      return seal();
    },
  });

  it('answers an UpstreamError naming the service error for a missing key', async () => {
    await assert.rejects(seal('alias/none').wrap(randomBytes(32)), (err: Error) => {
      assert.ok(err instanceof UpstreamError);
      assert.match(err.message, /NotFoundException/);
      return true;
    });
  });
});
