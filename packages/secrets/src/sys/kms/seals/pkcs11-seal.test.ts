import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { cryptoRandom } from '@ward/base';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { Pkcs11Modules } from '../pkcs11-modules.js';
import { createSoftHsm, SOFTHSM_LIBRARY } from '../softhsm.testing.js';
import { Pkcs11Seal, type Pkcs11SealOptions } from './pkcs11-seal.js';

// Issue 29 point 4: `seal "pkcs11"` against a SoftHSM2 token.

const hsm = createSoftHsm();
const token = hsm.addToken('ward-seal', '1234');
after(() => hsm.remove());
const modules = new Pkcs11Modules();
const seal = (o: Partial<Pkcs11SealOptions> = {}) =>
  new Pkcs11Seal(
    'pkcs11',
    modules,
    {
      lib: SOFTHSM_LIBRARY,
      tokenLabel: token.label,
      pin: token.pin,
      keyLabel: 'seal-a',
      mechanism: 0x1087,
      generateKey: true,
      ...o,
    },
    cryptoRandom,
  );

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
});
