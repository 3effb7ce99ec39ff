import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { type FakeAwsKms, startFakeAwsKms } from './fakes/aws-kms.js';

// Issue 16: cloud managed keys over real HTTP, the official SDK talking to a protocol-level fake.

describe('sys/managed-keys with alphakms (AWS KMS wire protocol)', () => {
  let t: TestServer;
  let kms: FakeAwsKms;
  before(async () => {
    kms = await startFakeAwsKms();
    kms.addKey('ECC_NIST_P256', 'alias/ec');
    t = await startTestServer();
  });
  after(async () => {
    await t.stop();
    await kms.close();
  });
  const key = (o: Record<string, unknown>) => ({
    access_key: 'AKIDEXAMPLE',
    secret_key: 'example-secret',
    endpoint: kms.endpoint,
    ...o,
  });
  const write = (path: string, body: unknown) => t.request('POST', `sys/managed-keys/${path}`, { body });

  it('test/sign generates an RSA key under its alias, signs in KMS and verifies (PKCS#1 and PSS)', async () => {
    const body = key({ key_type: 'rsa', key_bits: '2048', kms_key: 'alias/gen', allow_generate_key: 'true' });
    assert.equal((await write('awskms/aws-rsa', body)).status, 204);
    for (const sign of [{}, { use_pss: true, hash_algorithm: 'sha2-512' }]) {
      const r = await write('awskms/aws-rsa/test/sign', sign);
      assert.equal(r.status, 204, JSON.stringify(r.body));
    }
    assert.ok(kms.calls.includes('CreateAlias'));
    assert.equal((await write('awskms/aws-rsa/test/sign', { hash_algorithm: 'sha1' })).status, 400);
  });

  it('signs with an existing ECDSA key, refuses a hash its curve does not use, and answers 502 for a missing key', async () => {
    assert.equal((await write('alphakms/aws-ec', key({ key_type: 'ECDSA', kms_key: 'alias/ec' }))).status, 204);
    assert.equal((await write('alphakms/aws-ec/test/sign', {})).status, 204);
    assert.equal((await write('alphakms/aws-ec/test/sign', { hash_algorithm: 'sha2-384' })).status, 400);
    const missing = key({ key_type: 'ECDSA', kms_key: 'alias/none' });
    assert.equal((await write('alphakms/aws-none', missing)).status, 204);
    const r = await write('alphakms/aws-none/test/sign', {});
    assert.equal(r.status, 502);
    assert.match(r.body.errors[0], /NotFoundException/);
  });
});
