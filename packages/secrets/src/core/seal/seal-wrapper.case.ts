import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { cryptoRandom, silentLogger } from '@ward/base';
import { UpstreamError } from '../../logical/errors.js';
import { InmemStorage } from '../../storage/index.js';
import { AutoSeal } from './auto-seal.js';
import type { SealWrapper } from './seal-wrapper.js';
import { UNSEAL_KEYS_PATH } from './shamir-seal.js';
import { wrappedKeyId } from './wrapped-entry.js';

/** What a provider's test hands the shared suite. */
export interface SealWrapperCaseSetup {
  /** A wrapper over the provider's key (the same key each call). */
  wrapper(): Promise<SealWrapper>;
  /**
   * Rotates the seal key (a new key version, or a stanza pointing at a new key) and answers a
   * wrapper using the new key. Providers without rotation leave it out.
   */
  rotate?(): Promise<SealWrapper>;
}

/**
 * The contract every seal wrapper keeps, and an `AutoSeal` over it (as storage.case.ts does for
 * storage). Each provider's test calls this inside its `describe`.
 */
export function sealWrapperCases(setup: SealWrapperCaseSetup): void {
  it('unwraps what it wrapped, names the current key, and wraps the same key differently each time', async () => {
    const w = await setup.wrapper();
    const dataKey = randomBytes(32);
    const a = await w.wrap(dataKey);
    const b = await w.wrap(dataKey);
    assert.notEqual(a.ciphertext, b.ciphertext);
    assert.equal(a.keyId, await w.currentKeyId());
    assert.deepEqual(Buffer.from(await w.unwrap(a)), dataKey);
    // A fresh wrapper (a restarted server) reads it too.
    assert.deepEqual(Buffer.from(await (await setup.wrapper()).unwrap(b)), dataKey);
  });

  it('refuses a tampered ciphertext with an UpstreamError', async () => {
    const w = await setup.wrapper();
    const wrapped = await w.wrap(randomBytes(32));
    const bytes = Buffer.from(wrapped.ciphertext, 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    await assert.rejects(w.unwrap({ ...wrapped, ciphertext: bytes.toString('base64') }), UpstreamError);
  });

  it('keeps an auto seal: the root key is read back, recovery shares verify, wrong ones do not', async () => {
    const physical = new InmemStorage();
    const seal = new AutoSeal({ physical, random: cryptoRandom, wrapper: await setup.wrapper() });
    const { recoveryShares, rootKey } = await seal.initialize({ recoveryShares: 3, recoveryThreshold: 2 });
    assert.equal(recoveryShares.length, 3);
    const reopened = new AutoSeal({ physical, random: cryptoRandom, wrapper: await setup.wrapper() });
    assert.deepEqual(await reopened.rootKey(), rootKey);
    const verified = await reopened.recovery.withRootKey(
      recoveryShares.slice(1).map((s) => new Uint8Array(s)),
      async (k) => k.length,
    );
    assert.equal(verified, 32);
    const wrong = [new Uint8Array(recoveryShares[0] ?? []), new Uint8Array(33).fill(7)];
    await assert.rejects(
      reopened.recovery.withRootKey(wrong, async () => 0),
      { code: 'invalid_request' },
    );
  });

  if (setup.rotate) {
    const rotate = setup.rotate;
    it('after a rotation of the seal key, still reads the old entries and re-wraps them under the new key', async () => {
      const physical = new InmemStorage();
      const before = new AutoSeal({ physical, random: cryptoRandom, wrapper: await setup.wrapper() });
      const { rootKey } = await before.initialize({ recoveryShares: 1, recoveryThreshold: 1 });
      const oldKeyId = wrappedKeyId((await physical.get(UNSEAL_KEYS_PATH)) as Uint8Array);
      const after = new AutoSeal({ physical, random: cryptoRandom, wrapper: await rotate() });
      const newKeyId = await after.wrapper.currentKeyId();
      assert.notEqual(newKeyId, oldKeyId);
      assert.deepEqual(await after.rootKey(), rootKey);
      assert.equal((await after.upgradeKeys(silentLogger)).length, 2);
      assert.equal(wrappedKeyId((await physical.get(UNSEAL_KEYS_PATH)) as Uint8Array), newKeyId);
      assert.deepEqual(await after.rootKey(), rootKey);
      assert.deepEqual(await after.upgradeKeys(silentLogger), []);
    });
  }
}
