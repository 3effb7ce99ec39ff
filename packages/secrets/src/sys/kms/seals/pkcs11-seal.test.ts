import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { cryptoRandom } from '@ward/base';
import pkcs11js from 'pkcs11js';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { findSlot, Pkcs11Modules } from '../pkcs11-modules.js';
import { createSoftHsm, SOFTHSM_LIBRARY } from '../softhsm.testing.js';
import { Pkcs11Seal, type Pkcs11SealOptions } from './pkcs11-seal.js';

// Issue 29 point 4: `seal "pkcs11"` against a SoftHSM2 token.

const hsm = createSoftHsm();
const token = hsm.addToken('ward-seal', '1234');
after(() => hsm.remove());
const modules = new Pkcs11Modules();
const defaults: Pkcs11SealOptions = {
  lib: SOFTHSM_LIBRARY,
  tokenLabel: token.label,
  pin: token.pin,
  keyLabel: 'seal-a',
  mechanism: 0x1087,
  generateKey: true,
  rsaOaepHash: 'sha256',
};
const seal = (o: Partial<Pkcs11SealOptions> = {}) =>
  new Pkcs11Seal('pkcs11', modules, { ...defaults, ...o } as Pkcs11SealOptions, cryptoRandom);

describe('seal "pkcs11" on SoftHSM2 (CKM_AES_GCM)', () => {
  sealWrapperCases({
    wrapper: async () => seal(),
    // A rotation points the stanza at a new key; the old one stays in the token.
    rotate: async () => seal({ keyLabel: 'seal-b' }),
  });

  it('refuses a missing key without generate_key, and a wrong PIN, as UpstreamErrors', async () => {
    await assert.rejects(seal({ keyLabel: 'absent', generateKey: false }).wrap(randomBytes(32)), UpstreamError);
    await assert.rejects(seal({ pin: '9999', keyLabel: 'seal-a' }).wrap(randomBytes(32)), UpstreamError);
  });

  it('finds the key by slot number and id as well as by token label', async () => {
    const byId = seal({ keyLabel: 'seal-c', keyId: Buffer.from('c1', 'hex') });
    const wrapped = await byId.wrap(randomBytes(32));
    const other = seal({
      tokenLabel: undefined,
      slot: BigInt(token.slot),
      keyLabel: undefined,
      keyId: Buffer.from('c1', 'hex'),
    });
    assert.equal((await other.unwrap(wrapped)).length, 32);
  });

  it('wraps with an RSA key pair of the token (CKM_RSA_PKCS_OAEP): public half to wrap, private to unwrap', async () => {
    // The established seal generates no RSA keys: an operator makes the pair, as here.
    const module = modules.open(SOFTHSM_LIBRARY);
    const session = module.C_OpenSession(
      findSlot(module, { tokenLabel: token.label }),
      pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION,
    );
    const common = [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_LABEL, value: 'seal-rsa' },
    ];
    module.C_GenerateKeyPair(
      session,
      { mechanism: pkcs11js.CKM_RSA_PKCS_KEY_PAIR_GEN },
      [
        ...common,
        { type: pkcs11js.CKA_MODULUS_BITS, value: 2048 },
        { type: pkcs11js.CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
        { type: pkcs11js.CKA_ENCRYPT, value: true },
      ],
      [...common, { type: pkcs11js.CKA_PRIVATE, value: true }, { type: pkcs11js.CKA_DECRYPT, value: true }],
    );
    module.C_CloseSession(session);
    // SoftHSM2 does OAEP with SHA-1 only (it refuses others with CKR_ARGUMENTS_BAD).
    const rsa = seal({ keyLabel: 'seal-rsa', mechanism: 0x0009, generateKey: false, rsaOaepHash: 'sha1' });
    const dataKey = randomBytes(32);
    const wrapped = await rsa.wrap(dataKey);
    assert.equal(wrapped.params?.mechanism, '0x0009');
    assert.equal(wrapped.params?.iv, undefined);
    // The entry names its hash: a stanza with another default still unwraps it.
    assert.deepEqual(Buffer.from(await seal({ keyLabel: 'seal-rsa', mechanism: 0x0009 }).unwrap(wrapped)), dataKey);
  });
});
