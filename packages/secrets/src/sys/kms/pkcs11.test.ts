import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { UpstreamError } from '../../logical/errors.js';
import { managedKeyBackendCases } from './managed-key-backend.case.js';
import { digestOf, verifySignature } from './managed-key-backend.js';
import { CKM_ECDSA, Pkcs11Backend, type Pkcs11KeySettings } from './pkcs11.js';
import { Pkcs11Modules } from './pkcs11-modules.js';
import { createSoftHsm, SOFTHSM_LIBRARY } from './softhsm.testing.js';

const hsm = createSoftHsm();
const token = hsm.addToken('ward-kms', '1234');
const other = hsm.addToken('ward-other', '4321');
after(() => hsm.remove());
const modules = new Pkcs11Modules();

function settings(o: Partial<Pkcs11KeySettings>): Pkcs11KeySettings {
  return {
    libraryPath: SOFTHSM_LIBRARY,
    tokenLabel: token.label,
    pin: token.pin,
    key: { label: 'rsa' },
    mechanism: 0x1,
    keyBits: 2048,
    curve: '',
    allowGenerateKey: false,
    forceRwSession: false,
    maxParallel: 1,
    ...o,
  };
}
const backend = (o: Partial<Pkcs11KeySettings>) => new Pkcs11Backend(modules, settings(o));

// The suite's keys: generated once here (by label and id), then found by the suite's backends.
const rsaId = Buffer.from('a1', 'hex');
const ecId = Buffer.from('e1', 'hex');
await backend({ key: { label: 'rsa', id: rsaId }, allowGenerateKey: true }).publicKey();
await backend({
  key: { label: 'ec', id: ecId },
  mechanism: CKM_ECDSA,
  curve: 'P256',
  allowGenerateKey: true,
}).publicKey();

describe('PKCS#11 managed keys on SoftHSM2', () => {
  managedKeyBackendCases({
    rsa2048: async () => backend({ key: { label: 'rsa' } }),
    // Found by id alone, in the token's slot number rather than its label.
    ecP256: async () =>
      backend({ key: { id: ecId }, mechanism: CKM_ECDSA, tokenLabel: undefined, slot: BigInt(token.slot) }),
    rsaHashes: ['sha1', 'sha2-224', 'sha2-256', 'sha2-384', 'sha2-512'],
  });

  it('finds an RSA key by id and signs PKCS#1 v1.5 with SHA-3 (the digest is wrapped in software)', async () => {
    const b = backend({ key: { id: rsaId } });
    const data = randomBytes(20);
    for (const hash of ['sha3-224', 'sha3-256', 'sha3-384', 'sha3-512'] as const) {
      const signature = await b.sign(digestOf(data, hash), { hash, usePss: false });
      assert.ok(verifySignature(await b.publicKey(), data, signature, { hash, usePss: false }));
    }
    await b.close();
  });

  it('generates an RSA-3072 key on demand, and finds the same key afterwards', async () => {
    const made = await backend({ key: { label: 'gen3072' }, keyBits: 3072, allowGenerateKey: true }).publicKey();
    assert.equal(made.asymmetricKeyDetails?.modulusLength, 3072);
    const found = await backend({ key: { label: 'gen3072' } }).publicKey();
    assert.deepEqual(found.export({ format: 'jwk' }), made.export({ format: 'jwk' }));
  });

  it('answers a missing key without allow_generate_key, and a wrong PIN, as upstream failures', async () => {
    await assert.rejects(backend({ key: { label: 'absent' } }).publicKey(), UpstreamError);
    // The other token is not logged in yet: C_Login itself refuses the PIN.
    await assert.rejects(
      backend({ tokenLabel: other.label, pin: 'wrong' }).publicKey(),
      (err: Error) => err instanceof UpstreamError && err.message.includes('CKR_PIN_INCORRECT'),
    );
    // This token is logged in already (C_Login answers "already logged in" whatever the PIN).
    await assert.rejects(
      backend({ pin: 'wrong' }).publicKey(),
      (err: Error) => err instanceof UpstreamError && err.message.includes('CKR_PIN_INCORRECT'),
    );
  });

  it('runs up to max_parallel signs at once and every signature verifies', async () => {
    const b = backend({ key: { label: 'rsa' }, maxParallel: 4 });
    const key = await b.publicKey();
    const data = Array.from({ length: 32 }, () => randomBytes(32));
    const signatures = await Promise.all(
      data.map((d) => b.sign(digestOf(d, 'sha2-256'), { hash: 'sha2-256', usePss: true })),
    );
    signatures.forEach((s, i) => {
      assert.ok(verifySignature(key, data[i] as Buffer, s, { hash: 'sha2-256', usePss: true }));
    });
    await b.close();
  });
});
