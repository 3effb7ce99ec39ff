import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { digestOf, type HashAlgorithm, type ManagedKeyBackend, verifySignature } from './managed-key-backend.js';

/** What a provider's test hands the shared suite: fresh backends over existing keys of each kind. */
export interface ManagedKeyCaseSetup {
  rsa2048(): Promise<ManagedKeyBackend>;
  /** A key for PSS, where the provider fixes the scheme per key (Cloud KMS); else `rsa2048` signs both. */
  rsa2048Pss?(): Promise<ManagedKeyBackend>;
  ecP256(): Promise<ManagedKeyBackend>;
  /** The hashes the provider signs RSA keys with (PKCS#1 v1.5 and PSS alike). */
  rsaHashes: readonly HashAlgorithm[];
}

async function signs(backend: ManagedKeyBackend, hash: HashAlgorithm, usePss: boolean) {
  const data = randomBytes(64);
  const signature = await backend.sign(digestOf(data, hash), { hash, usePss });
  const key = await backend.publicKey();
  assert.ok(verifySignature(key, data, signature, { hash, usePss }), `${hash} pss=${usePss} verifies`);
  // A signature of other data must not verify: the provider signed what it was given.
  assert.ok(!verifySignature(key, randomBytes(64), signature, { hash, usePss }));
}

/**
 * The contract every `ManagedKeyBackend` keeps (as storage.case.ts does for storage). Each
 * provider's test calls this inside its `describe`.
 */
export function managedKeyBackendCases(setup: ManagedKeyCaseSetup): void {
  const withBackend = async (make: () => Promise<ManagedKeyBackend>, body: (b: ManagedKeyBackend) => Promise<void>) => {
    const backend = await make();
    try {
      await body(backend);
    } finally {
      await backend.close();
    }
  };

  it('signs with an RSA key in PKCS#1 v1.5 and PSS, each hash it supports, verifiable with the public key', async () => {
    await withBackend(setup.rsa2048, async (b) => {
      assert.equal((await b.publicKey()).asymmetricKeyDetails?.modulusLength, 2048);
      for (const hash of setup.rsaHashes) await signs(b, hash, false);
    });
    await withBackend(setup.rsa2048Pss ?? setup.rsa2048, async (b) => {
      for (const hash of setup.rsaHashes) await signs(b, hash, true);
    });
  });

  it('signs with an EC P-256 key (DER ECDSA) and refuses PSS for it', () =>
    withBackend(setup.ecP256, async (b) => {
      assert.equal((await b.publicKey()).asymmetricKeyDetails?.namedCurve, 'prime256v1');
      await signs(b, 'sha2-256', false);
      await assert.rejects(
        b.sign(digestOf(Buffer.from('x'), 'sha2-256'), { hash: 'sha2-256', usePss: true }),
        InvalidRequestError,
      );
    }));

  it('serves concurrent signs', () =>
    withBackend(setup.rsa2048, async (b) => {
      const key = await b.publicKey();
      const data = Array.from({ length: 8 }, () => randomBytes(32));
      const signatures = await Promise.all(
        data.map((d) => b.sign(digestOf(d, 'sha2-256'), { hash: 'sha2-256', usePss: false })),
      );
      signatures.forEach((s, i) => {
        assert.ok(verifySignature(key, data[i] as Buffer, s, { hash: 'sha2-256', usePss: false }));
      });
    }));
}
