import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeAwsKms, startFakeAwsKms } from '../../../test/fakes/aws-kms.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { AwsKmsBackend, type AwsKmsSettings } from './aws-kms.js';
import { managedKeyBackendCases } from './managed-key-backend.case.js';
import { digestOf } from './managed-key-backend.js';

let kms: FakeAwsKms;
before(async () => {
  kms = await startFakeAwsKms();
  kms.addKey('RSA_2048', 'alias/rsa');
  kms.addKey('ECC_NIST_P256', 'alias/ec');
});
after(() => kms.close());

const backend = (o: Partial<AwsKmsSettings>) =>
  new AwsKmsBackend({
    region: 'us-east-1',
    endpoint: kms.endpoint,
    accessKey: 'AKIDEXAMPLE',
    secretKey: 'secret',
    kmsKey: 'alias/rsa',
    keyType: 'RSA',
    keyBits: 2048,
    curve: '',
    allowGenerateKey: false,
    ...o,
  });

describe('alphakms managed keys through @aws-sdk/client-kms against a protocol-level fake', () => {
  managedKeyBackendCases({
    rsa2048: async () => backend({}),
    ecP256: async () => backend({ kmsKey: 'alias/ec', keyType: 'ECDSA' }),
    rsaHashes: ['sha2-256', 'sha2-384', 'sha2-512'],
  });

  it('generates a key under an alias when allowed, and finds it by that alias afterwards', async () => {
    const made = await backend({ kmsKey: 'alias/made', keyBits: 3072, allowGenerateKey: true }).publicKey();
    assert.equal(made.asymmetricKeyDetails?.modulusLength, 3072);
    assert.ok(kms.calls.includes('CreateKey') && kms.calls.includes('CreateAlias'));
    const found = await backend({ kmsKey: 'alias/made' }).publicKey();
    assert.deepEqual(found.export({ format: 'jwk' }), made.export({ format: 'jwk' }));
  });

  it('answers a missing key with 502 carrying the service error, and hashes KMS cannot use with 400', async () => {
    await assert.rejects(
      backend({ kmsKey: 'alias/absent' }).publicKey(),
      (err: Error) => err instanceof UpstreamError && err.message.includes('NotFoundException'),
    );
    const rsa = backend({});
    await assert.rejects(
      rsa.sign(digestOf(Buffer.from('x'), 'sha1'), { hash: 'sha1', usePss: false }),
      InvalidRequestError,
    );
    const ec = backend({ kmsKey: 'alias/ec', keyType: 'ECDSA' });
    await assert.rejects(
      ec.sign(digestOf(Buffer.from('x'), 'sha2-384'), { hash: 'sha2-384', usePss: false }),
      InvalidRequestError,
    );
  });
});
