import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { InmemStorage } from '../../storage/index.js';
import { SEAL_CONFIG_PATH, ShamirSeal, UNSEAL_KEYS_PATH } from './shamir-seal.js';

function newSeal(physical = new InmemStorage()) {
  return { seal: new ShamirSeal({ physical, random: new SeededRandom('seal') }), physical };
}

const rejectsInvalidKey = (promise: Promise<unknown>) =>
  assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof InvalidRequestError);
    assert.match(err.message, /^invalid key: /);
    return true;
  });

describe('ShamirSeal', () => {
  it('recovers the root key from any 3 of 5 shares, in any order', async () => {
    const { seal } = newSeal();
    const { keyShares, rootKey } = await seal.initialize({ shares: 5, threshold: 3 });
    assert.equal(keyShares.length, 5);
    assert.equal(rootKey.length, 32);
    for (const share of keyShares) assert.equal(share.length, 33);
    assert.equal(new Set(keyShares.map((s) => s[32])).size, 5, 'distinct x-coordinates, stored last');
    const [a, b, c, d, e] = keyShares as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    for (const picked of [
      [a, b, c],
      [c, b, a],
      [e, a, d],
      [d, c, e],
      [a, b, c, d, e],
    ]) {
      assert.deepEqual(await seal.recoverRootKey(picked), rootKey);
    }
    // Node Buffers (what a decoder hands over) work as well as plain arrays.
    assert.deepEqual(await seal.recoverRootKey([Buffer.from(b), Buffer.from(d), Buffer.from(e)]), rootKey);
  });

  it('refuses fewer shares than the threshold, duplicates, and shares of another seal', async () => {
    const { seal } = newSeal();
    const { keyShares } = await seal.initialize({ shares: 5, threshold: 3 });
    const [a, b, c] = keyShares as [Uint8Array, Uint8Array, Uint8Array];
    await rejectsInvalidKey(seal.recoverRootKey([a, b]));
    await rejectsInvalidKey(seal.recoverRootKey([a, b, a]));
    await rejectsInvalidKey(seal.recoverRootKey([a, b, c.subarray(0, 32)]));

    const other = new ShamirSeal({ physical: new InmemStorage(), random: new SeededRandom('other') });
    const foreign = (await other.initialize({ shares: 5, threshold: 3 })).keyShares;
    // Three foreign shares combine into some 32-byte key, which then fails to decrypt.
    await assert.rejects(
      seal.recoverRootKey(foreign.slice(0, 3)),
      /^InvalidRequestError: invalid key: failed to decrypt keys from storage: /,
    );
  });

  it('hands out the raw 32-byte unseal key when there is one share', async () => {
    const { seal } = newSeal();
    const { keyShares, rootKey } = await seal.initialize({ shares: 1, threshold: 1 });
    assert.equal(keyShares.length, 1);
    assert.equal(keyShares[0]?.length, 32);
    assert.notDeepEqual(keyShares[0], rootKey, 'the share is the KEK, not the root key');
    assert.deepEqual(await seal.recoverRootKey(keyShares), rootKey);
    const wrong = new Uint8Array(keyShares[0] ?? []);
    wrong[0] = (wrong[0] ?? 0) ^ 1;
    await rejectsInvalidKey(seal.recoverRootKey([wrong]));
    await rejectsInvalidKey(seal.recoverRootKey([new Uint8Array(33)]));
  });

  it('stores its configuration and the root key encrypted, never the key in the clear', async () => {
    const { seal, physical } = newSeal();
    assert.equal(await seal.config(), undefined);
    const { rootKey } = await seal.initialize({ shares: 3, threshold: 2 });
    assert.deepEqual(await seal.config(), { type: 'shamir', secret_shares: 3, secret_threshold: 2 });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(await physical.get(SEAL_CONFIG_PATH))), {
      type: 'shamir',
      secret_shares: 3,
      secret_threshold: 2,
    });
    const stored = Buffer.from((await physical.get(UNSEAL_KEYS_PATH)) ?? []);
    assert.ok(stored.length > 0);
    assert.equal(stored.indexOf(Buffer.from(rootKey)), -1);
    assert.equal(stored.indexOf(Buffer.from(Buffer.from(rootKey).toString('base64'))), -1);
  });

  it('initialises once, and cannot recover before that', async () => {
    const { seal } = newSeal();
    await assert.rejects(seal.recoverRootKey([new Uint8Array(32)]), InvalidRequestError);
    await seal.initialize({ shares: 1, threshold: 1 });
    await assert.rejects(seal.initialize({ shares: 1, threshold: 1 }), InvalidRequestError);
  });

  it('validates share and threshold counts with the established messages', async () => {
    const cases: Array<[number, number, string]> = [
      [0, 1, 'shares must be at least one'],
      [1, 0, 'threshold must be at least one'],
      [3, 1, 'threshold must be greater than one for multiple shares'],
      [256, 2, 'shares must be less than 256'],
      [255, 256, 'threshold must be less than 256'],
      [3, 4, 'threshold cannot be larger than shares'],
    ];
    for (const [shares, threshold, message] of cases) {
      const { seal, physical } = newSeal();
      await assert.rejects(seal.initialize({ shares, threshold }), (err: unknown) => {
        assert.ok(err instanceof InvalidRequestError);
        assert.equal(err.message, message);
        return true;
      });
      assert.deepEqual(await physical.list(''), [], 'nothing stored');
    }
    const { seal } = newSeal();
    const { keyShares } = await seal.initialize({ shares: 255, threshold: 255 });
    assert.equal(keyShares.length, 255);
  });
});
