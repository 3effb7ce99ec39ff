import assert from 'node:assert/strict';
import { constants, createPublicKey, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { createSoftHsm, SOFTHSM_LIBRARY, softHsmManagedKey } from '../src/sys/kms/softhsm.testing.js';

// Issue 16 point 6: the transit subset signs inside SoftHSM through a managed key, and a mount
// may use only the keys its allowed_managed_keys lists (or keys with any_mount).

const hsm = createSoftHsm();
const token = hsm.addToken('ward-transit', '1234');

describe('transit with managed keys', () => {
  let t: TestServer;
  const pkcs11 = (label: string, o: Record<string, unknown>) => softHsmManagedKey(token, label, o);

  before(async () => {
    t = await startTestServer({ kmsLibraries: new Map([['softhsm', SOFTHSM_LIBRARY]]) });
    await t.ok(
      'POST',
      'sys/managed-keys/pkcs11/hsm-rsa',
      pkcs11('transit-rsa', { mechanism: '0x0001', key_bits: 2048 }),
    );
    const ec = pkcs11('transit-ec', { mechanism: '0x1041', curve: 'P256', any_mount: true });
    await t.ok('POST', 'sys/managed-keys/pkcs11/hsm-ec', ec);
    await t.ok('POST', 'sys/mounts/transit', { type: 'transit' });
  });
  after(async () => {
    await t.stop();
    hsm.remove();
  });

  it('refuses a managed key the mount does not list, and uses it once listed', async () => {
    const refused = await t.request('POST', 'transit/keys/app', {
      body: { type: 'managed_key', managed_key_name: 'hsm-rsa' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0], /allowed_managed_keys/);
    await t.ok('POST', 'sys/mounts/transit/tune', { allowed_managed_keys: ['hsm-rsa'] });
    await t.ok('POST', 'transit/keys/app', { type: 'managed_key', managed_key_name: 'hsm-rsa' });
    const both = await t.request('POST', 'transit/keys/x', {
      body: { type: 'managed_key', managed_key_name: 'a', managed_key_id: 'b' },
    });
    assert.equal(both.status, 400);
  });

  it('signs in the HSM (PSS by default, PKCS#1 v1.5 on request) and verifies, also with an independent verifier', async () => {
    const key = await t.ok('GET', 'transit/keys/app');
    assert.equal(key.data.type, 'managed_key');
    const publicKey = createPublicKey(key.data.keys['1'].public_key);
    const input = Buffer.from('hello transit');
    for (const signature_algorithm of ['pss', 'pkcs1v15']) {
      const body = { input: input.toString('base64'), signature_algorithm, hash_algorithm: 'sha2-384' };
      const signed = await t.ok('POST', 'transit/sign/app', body);
      const signature = signed.data.signature as string;
      assert.match(signature, /^vault:v1:/);
      const raw = Buffer.from(signature.slice('vault:v1:'.length), 'base64');
      const padding = signature_algorithm === 'pss' ? constants.RSA_PKCS1_PSS_PADDING : constants.RSA_PKCS1_PADDING;
      assert.ok(verify('sha384', input, { key: publicKey, padding, saltLength: 48 }, raw));
      assert.equal((await t.ok('POST', 'transit/verify/app', { ...body, signature })).data.valid, true);
      const tampered = { ...body, input: Buffer.from('other').toString('base64'), signature };
      assert.equal((await t.ok('POST', 'transit/verify/app', tampered)).data.valid, false);
    }
    const viaUrl = await t.ok('POST', 'transit/sign/app/sha2-512', { input: input.toString('base64') });
    const check = { input: input.toString('base64'), signature: viaUrl.data.signature };
    assert.equal((await t.ok('POST', 'transit/verify/app/sha2-512', check)).data.valid, true);
  });

  it('uses an any_mount key from any mount, by id, with ECDSA signatures in DER', async () => {
    const managed = await t.ok('GET', 'sys/managed-keys/pkcs11/hsm-ec');
    await t.ok('POST', 'sys/mounts/transit-ec', { type: 'transit' });
    await t.ok('POST', 'transit-ec/keys/ec', { type: 'managed_key', managed_key_id: managed.UUID });
    const input = Buffer.from('ec data').toString('base64');
    const signed = await t.ok('POST', 'transit-ec/sign/ec', { input });
    const publicKey = createPublicKey((await t.ok('GET', 'transit-ec/keys/ec')).data.keys['1'].public_key);
    const raw = Buffer.from(signed.data.signature.slice('vault:v1:'.length), 'base64');
    assert.ok(verify('sha256', Buffer.from('ec data'), publicKey, raw));
    assert.deepEqual((await t.ok('LIST', 'transit-ec/keys')).data.keys, ['ec']);
  });

  it('stops signing once a tune removes the key from allowed_managed_keys', async () => {
    await t.ok('POST', 'sys/mounts/transit/tune', { allowed_managed_keys: '' });
    const r = await t.request('POST', 'transit/sign/app', { body: { input: 'aGk=' } });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0], /allowed_managed_keys/);
  });
});
