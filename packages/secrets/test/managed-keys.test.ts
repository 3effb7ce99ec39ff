import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { createSoftHsm, SOFTHSM_LIBRARY, type SoftHsmToken } from '../src/sys/kms/softhsm.testing.js';

// Issue 16: sys/managed-keys over real HTTP, against a SoftHSM2 token in a temp directory
// (spec 000 "Managed key", its endpoint table and limits; reference secrets-keys-snapshots §1).

const hsm = createSoftHsm();
const token: SoftHsmToken = hsm.addToken('ward-http', '1234');

describe('sys/managed-keys', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ kmsLibraries: new Map([['softhsm', SOFTHSM_LIBRARY]]) });
  });
  after(async () => {
    await t.stop();
    hsm.remove();
  });

  const pkcs11 = (o: Record<string, unknown> = {}) => ({
    library: 'SoftHSM',
    key_label: 'rsa-http',
    mechanism: '0x0001',
    pin: token.pin,
    token_label: token.label,
    allow_generate_key: 'true',
    key_bits: '2048',
    ...o,
  });
  const write = (path: string, body: unknown) => t.request('POST', `sys/managed-keys/${path}`, { body });
  const expect400 = async (path: string, body: unknown, field: string) => {
    const r = await write(path, body);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.match(r.body.errors.join(' '), new RegExp(`"${field}"`), JSON.stringify(r.body));
  };

  it('creates, reads (top level and data, PIN redacted, numbers), lists and keeps the UUID on update', async () => {
    assert.equal((await write('pkcs11/hsm-a', pkcs11({ any_mount: true }))).status, 204);
    const r = await t.request('GET', 'sys/managed-keys/pkcs11/hsm-a');
    assert.equal(r.status, 200);
    const expected = {
      allow_generate_key: true,
      allow_replace_key: false,
      allow_store_key: false,
      any_mount: true,
      force_rw_session: false,
      curve: '',
      key_bits: 2048,
      key_label: 'rsa-http',
      key_id: '',
      library: 'SoftHSM',
      mechanism: 1,
      max_parallel: 1,
      name: 'hsm-a',
      pin: 'redacted',
      slot: 0,
      token_label: token.label,
      type: 'pkcs11',
    };
    for (const [k, v] of Object.entries(expected)) {
      assert.deepEqual(r.body[k], v, k);
      assert.deepEqual(r.body.data[k], v, `data.${k}`);
    }
    assert.match(r.body.UUID, /^[0-9a-f-]{36}$/);
    assert.equal(JSON.stringify(r.body).includes(token.pin), false);
    assert.equal((await write('pkcs11/hsm-a', { mechanism: '0x000D', max_parallel: 2 })).status, 204);
    const again = await t.request('GET', 'sys/managed-keys/pkcs11/hsm-a');
    assert.equal(again.body.UUID, r.body.UUID);
    assert.equal(again.body.mechanism, 13);
    assert.equal(again.body.max_parallel, 2);
    const list = await t.request('LIST', 'sys/managed-keys/pkcs11');
    assert.deepEqual(list.body.keys, ['hsm-a']);
    assert.deepEqual(list.body.data.keys, ['hsm-a']);
  });

  it('accepts the established type names as aliases and keeps names unique across types', async () => {
    const aws = { key_type: 'RSA', key_bits: '2048', kms_key: 'alias/x', access_key: 'a', secret_key: 's' };
    assert.equal((await write('awskms/cloud-a', aws)).status, 204);
    const read = await t.request('GET', 'sys/managed-keys/alphakms/cloud-a');
    assert.equal(read.body.type, 'alphakms');
    assert.equal(read.body.region, 'us-east-1');
    assert.equal('secret_key' in read.body, false);
    assert.deepEqual((await t.request('LIST', 'sys/managed-keys/awskms')).body.keys, ['cloud-a']);
    await expect400('pkcs11/cloud-a', pkcs11(), 'name');
    assert.equal((await t.request('GET', 'sys/managed-keys/pkcs11/cloud-a')).status, 404);
  });

  it('refuses invalid parameters with 400 naming the field', async () => {
    await expect400('pkcs11/Upper', pkcs11(), 'name');
    await expect400('pkcs11/k1', pkcs11({ library: 'nope' }), 'library');
    await expect400('pkcs11/k1', pkcs11({ mechanism: '1' }), 'mechanism');
    await expect400('pkcs11/k1', pkcs11({ pin: undefined }), 'pin');
    await expect400('pkcs11/k1', pkcs11({ key_label: undefined }), 'key_label');
    await expect400('pkcs11/k1', pkcs11({ token_label: undefined }), 'slot');
    await expect400('pkcs11/k1', pkcs11({ slot: '0x12' }), 'slot');
    await expect400('pkcs11/k1', pkcs11({ key_bits: 1024 }), 'key_bits');
    await expect400('pkcs11/k1', pkcs11({ key_bits: undefined }), 'key_bits');
    await expect400('pkcs11/k1', pkcs11({ mechanism: '0x1041', curve: 'P999' }), 'curve');
    await expect400('pkcs11/k1', pkcs11({ max_parallel: 0 }), 'max_parallel');
    await expect400('pkcs11/k1', pkcs11({ any_mount: 'maybe' }), 'any_mount');
    await expect400('pkcs11/k1', pkcs11({ kms_key: 'alias/x' }), 'kms_key');
    await expect400('awskms/k1', { key_type: 'DSA', kms_key: 'k' }, 'key_type');
    await expect400(
      'awskms/k1',
      { key_type: 'RSA', kms_key: 'k', allow_generate_key: true, key_bits: 2048 },
      'kms_key',
    );
    await expect400('azurekeyvault/k1', { tenant_id: 't', store_name: 'v', key_name: 'k', key_type: 'EC' }, 'key_type');
    await expect400(
      'gcpckms/k1',
      { crypto_key: 'c', key_ring: 'r', project: 'p', region: 'l', algorithm: 'X' },
      'algorithm',
    );
    const nope = await write('hsm/k1', pkcs11());
    assert.equal(nope.status, 400);
  });

  it('test/sign signs and verifies through SoftHSM, generating the key on first use', async () => {
    assert.equal((await write('pkcs11/hsm-sign', pkcs11({ key_label: 'sign-rsa' }))).status, 204);
    for (const body of [{}, { use_pss: true, hash_algorithm: 'sha2-512' }, { hash_algorithm: 'sha3-256' }]) {
      const r = await write('pkcs11/hsm-sign/test/sign', body);
      assert.equal(r.status, 204, JSON.stringify(r.body));
    }
    const ec = pkcs11({ key_label: 'sign-ec', mechanism: '0x1041', curve: 'P256', key_bits: undefined });
    assert.equal((await write('pkcs11/hsm-ec', ec)).status, 204);
    assert.equal((await write('pkcs11/hsm-ec/test/sign', { hash_algorithm: 'sha2-384' })).status, 204);
    const pssOnEc = await write('pkcs11/hsm-ec/test/sign', { use_pss: 'true' });
    assert.equal(pssOnEc.status, 400);
    const pssSha3 = await write('pkcs11/hsm-sign/test/sign', { use_pss: true, hash_algorithm: 'sha3-256' });
    assert.equal(pssSha3.status, 400);
    const badHash = await write('pkcs11/hsm-sign/test/sign', { hash_algorithm: 'md5' });
    assert.equal(badHash.status, 400);
  });

  it('test/sign answers HSM failures with 502 and their message', async () => {
    const missing = pkcs11({ key_label: 'absent', allow_generate_key: false, key_bits: undefined });
    assert.equal((await write('pkcs11/hsm-missing', missing)).status, 204);
    const r = await write('pkcs11/hsm-missing/test/sign', {});
    assert.equal(r.status, 502);
    assert.match(r.body.errors[0], /no private key found/);
    assert.equal((await write('pkcs11/hsm-pin', pkcs11({ pin: '9999' }))).status, 204);
    const pin = await write('pkcs11/hsm-pin/test/sign', {});
    assert.equal(pin.status, 502);
    assert.match(pin.body.errors[0], /CKR_PIN_INCORRECT/);
  });

  it('refuses to delete a key a mount lists in allowed_managed_keys, naming the mount', async () => {
    assert.equal((await write('pkcs11/hsm-used', pkcs11())).status, 204);
    const mount = await t.request('POST', 'sys/mounts/kv-hsm', {
      body: { type: 'kv', config: { allowed_managed_keys: ['hsm-used'] } },
    });
    assert.equal(mount.status, 204, JSON.stringify(mount.body));
    const refused = await t.request('DELETE', 'sys/managed-keys/pkcs11/hsm-used');
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0], /kv-hsm\//);
    const tune = await t.request('POST', 'sys/mounts/kv-hsm/tune', { body: { allowed_managed_keys: '' } });
    assert.equal(tune.status, 204);
    assert.equal((await t.request('DELETE', 'sys/managed-keys/pkcs11/hsm-used')).status, 204);
    assert.equal((await t.request('GET', 'sys/managed-keys/pkcs11/hsm-used')).status, 404);
  });

  it('keeps each namespace apart: a name taken in the root namespace is free in a child', async () => {
    assert.ok((await t.request('POST', 'sys/namespaces/team')).status < 300);
    const headers = { 'X-Vault-Namespace': 'team/' };
    const created = await t.request('POST', 'sys/managed-keys/pkcs11/hsm-a', { body: pkcs11(), headers });
    assert.equal(created.status, 204, JSON.stringify(created.body));
    assert.deepEqual((await t.request('LIST', 'sys/managed-keys/pkcs11', { headers })).body.keys, ['hsm-a']);
    const root = await t.request('GET', 'sys/managed-keys/pkcs11/hsm-a');
    const child = await t.request('GET', 'sys/managed-keys/pkcs11/hsm-a', { headers });
    assert.notEqual(child.body.UUID, root.body.UUID);
  });
});
