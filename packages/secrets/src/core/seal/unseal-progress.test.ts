import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { parseUnsealKey, UnsealProgress } from './unseal-progress.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UnsealProgress', () => {
  it('counts distinct shares under one nonce, and take() ends the attempt', () => {
    const progress = new UnsealProgress(new SeededRandom(1));
    assert.equal(progress.progress, 0);
    assert.equal(progress.nonce, '');
    const a = new Uint8Array(33).fill(1);
    const b = new Uint8Array(33).fill(2);
    progress.submit(a);
    const nonce = progress.nonce;
    assert.match(nonce, UUID);
    progress.submit(new Uint8Array(a));
    assert.equal(progress.progress, 1, 'a repeated share is not counted');
    progress.submit(b);
    assert.equal(progress.progress, 2);
    assert.equal(progress.nonce, nonce);
    a.fill(9);
    assert.deepEqual(progress.take(), [new Uint8Array(33).fill(1), b]);
    assert.equal(progress.progress, 0);
    assert.equal(progress.nonce, '');
    progress.submit(a);
    assert.match(progress.nonce, UUID);
    assert.notEqual(progress.nonce, nonce, 'a new attempt gets a new nonce');
  });

  it('resets', () => {
    const progress = new UnsealProgress(new SeededRandom(2));
    progress.submit(new Uint8Array(32).fill(1));
    progress.reset();
    assert.equal(progress.progress, 0);
    assert.equal(progress.nonce, '');
    assert.deepEqual(progress.take(), []);
  });

  it('refuses keys shorter than 16 or longer than 33 bytes without counting them', () => {
    const progress = new UnsealProgress(new SeededRandom(3));
    assert.throws(() => progress.submit(new Uint8Array(15)), /invalid key: key is shorter than minimum 16 bytes/);
    assert.throws(() => progress.submit(new Uint8Array(34)), /invalid key: key is longer than maximum 33 bytes/);
    assert.throws(() => progress.submit(new Uint8Array(0)), InvalidRequestError);
    assert.equal(progress.progress, 0);
    assert.equal(progress.nonce, '');
  });
});

describe('parseUnsealKey', () => {
  const share = Uint8Array.from({ length: 33 }, (_, i) => i * 7);

  it('reads a 33-byte share as hex (either case) and as base64', () => {
    const hex = Buffer.from(share).toString('hex');
    assert.equal(hex.length, 66);
    assert.deepEqual(parseUnsealKey(hex), share);
    assert.deepEqual(parseUnsealKey(hex.toUpperCase()), share);
    assert.deepEqual(parseUnsealKey(Buffer.from(share).toString('base64')), share);
    const kek = share.subarray(0, 32);
    assert.deepEqual(parseUnsealKey(Buffer.from(kek).toString('base64')), new Uint8Array(kek));
    assert.deepEqual(parseUnsealKey(Buffer.from(kek).toString('hex')), new Uint8Array(kek));
  });

  it('falls back to base64 when the hex decodes outside 16–33 bytes', () => {
    // 24 characters of valid hex (12 bytes) that are also valid base64 (18 bytes).
    const text = 'deadbeefdeadbeefdeadbeef';
    assert.equal(parseUnsealKey(text).length, 18);
    assert.deepEqual(parseUnsealKey(text), new Uint8Array(Buffer.from(text, 'base64')));
  });

  it('refuses text that is neither', () => {
    for (const garbage of ['not a key!', 'zz', 'abc', 'AAAA=AAA', `${'a'.repeat(66)}g`]) {
      assert.throws(
        () => parseUnsealKey(garbage),
        (err: unknown) =>
          err instanceof InvalidRequestError && err.message === "'key' must be a valid hex or base64 string",
        garbage,
      );
    }
  });
});
