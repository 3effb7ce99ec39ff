import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAuth2Client } from 'google-auth-library';
import { type FakeGcpKms, startFakeGcpKms } from '../../../test/fakes/gcp-kms.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { GcpKmsBackend, type GcpKmsSettings } from './gcp-kms.js';
import { managedKeyBackendCases } from './managed-key-backend.case.js';
import { digestOf, verifySignature } from './managed-key-backend.js';

const RING = 'projects/p/locations/global/keyRings/ring';
let kms: FakeGcpKms;
before(async () => {
  kms = await startFakeGcpKms();
  kms.addKey(RING, 'pss', 'RSA_SIGN_PSS_2048_SHA256');
  kms.addKey(RING, 'pkcs1', 'RSA_SIGN_PKCS1_4096_SHA512');
  kms.addKey(RING, 'pkcs1-2048', 'RSA_SIGN_PKCS1_2048_SHA256');
  kms.addKey(RING, 'ec', 'EC_SIGN_P256_SHA256');
});
after(() => kms.close());

// Google sign-in is outside Cloud KMS's protocol; the SDK takes an auth client holding a token.
// (The package's google-auth-library may be a newer 10.x than google-gax's copy: same shape, other type.)
function authClient() {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  return client as unknown as GcpKmsSettings['authClient'];
}

const backend = (o: Partial<GcpKmsSettings>) =>
  new GcpKmsBackend({
    credentials: '',
    project: 'p',
    region: 'global',
    keyRing: 'ring',
    cryptoKey: 'pss',
    cryptoKeyVersion: '1',
    algorithm: 'RSA_SIGN_PSS_2048_SHA256',
    allowGenerateKey: false,
    endpoint: kms.endpoint,
    authClient: authClient(),
    ...o,
  });

async function signs(b: GcpKmsBackend, hash: 'sha2-256' | 'sha2-512', usePss: boolean) {
  const data = Buffer.from('gamma data');
  const signature = await b.sign(digestOf(data, hash), { hash, usePss });
  assert.ok(verifySignature(await b.publicKey(), data, signature, { hash, usePss }));
  assert.ok(!verifySignature(await b.publicKey(), Buffer.from('other'), signature, { hash, usePss }));
}

describe('gammackms managed keys through @google-cloud/kms against a protocol-level fake', () => {
  managedKeyBackendCases({
    rsa2048: async () => backend({ cryptoKey: 'pkcs1-2048', algorithm: 'RSA_SIGN_PKCS1_2048_SHA256' }),
    rsa2048Pss: async () => backend({}),
    ecP256: async () => backend({ cryptoKey: 'ec', algorithm: 'EC_SIGN_P256_SHA256' }),
    rsaHashes: ['sha2-256'],
  });

  it('signs with PSS, PKCS#1 (SHA-512) and ECDSA keys, each verifiable with its public key', async () => {
    await signs(backend({}), 'sha2-256', true);
    await signs(backend({ cryptoKey: 'pkcs1', algorithm: 'RSA_SIGN_PKCS1_4096_SHA512' }), 'sha2-512', false);
    await signs(backend({ cryptoKey: 'ec', algorithm: 'EC_SIGN_P256_SHA256' }), 'sha2-256', false);
  });

  it('refuses a hash or scheme the key algorithm does not use (400)', async () => {
    const b = backend({});
    await assert.rejects(
      b.sign(digestOf(Buffer.from('x'), 'sha2-512'), { hash: 'sha2-512', usePss: true }),
      InvalidRequestError,
    );
    await assert.rejects(
      b.sign(digestOf(Buffer.from('x'), 'sha2-256'), { hash: 'sha2-256', usePss: false }),
      InvalidRequestError,
    );
  });

  it('creates a missing crypto key when allowed, and answers a missing one otherwise with 502', async () => {
    const made = await backend({
      cryptoKey: 'made',
      algorithm: 'EC_SIGN_P384_SHA384',
      allowGenerateKey: true,
    }).publicKey();
    assert.equal(made.asymmetricKeyDetails?.namedCurve, 'secp384r1');
    await assert.rejects(
      backend({ cryptoKey: 'absent' }).publicKey(),
      (err: Error) => err instanceof UpstreamError && /not found/i.test(err.message),
    );
  });
});
