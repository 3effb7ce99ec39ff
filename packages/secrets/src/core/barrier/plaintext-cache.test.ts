import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlaintextCache } from './plaintext-cache.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('PlaintextCache', () => {
  it('answers only for the exact ciphertext it was given, with a copy the caller may change', () => {
    const cache = new PlaintextCache();
    cache.remember('k', bytes('cipher-1'), bytes('plain-1'));
    assert.equal(cache.get('k', bytes('cipher-2')), undefined);
    assert.equal(cache.get('other', bytes('cipher-1')), undefined);
    const hit = cache.get('k', bytes('cipher-1'));
    assert.equal(hit?.toString(), 'plain-1');
    hit?.fill(0);
    assert.equal(cache.get('k', bytes('cipher-1'))?.toString(), 'plain-1');
  });

  it('keeps its own copies of what it is given', () => {
    const cache = new PlaintextCache();
    const cipher = bytes('cipher');
    const plain = bytes('plain');
    cache.remember('k', cipher, plain);
    plain.fill(0);
    assert.equal(cache.get('k', bytes('cipher'))?.toString(), 'plain');
    cipher.fill(0);
    assert.equal(cache.get('k', bytes('cipher'))?.toString(), 'plain');
  });

  it('keeps buffers handed over as they are, but copies a view into a larger buffer (a pool slab)', () => {
    const cache = new PlaintextCache();
    const own = new Uint8Array(bytes('cipher-own'));
    cache.remember('k', own, bytes('plain'), 'ciphertext');
    assert.equal(cache.ciphertextOf('k'), own);
    const slice = bytes('cipher-slice'); // small Buffers are views into Node's shared pool
    assert.notEqual(slice.byteLength, slice.buffer.byteLength);
    cache.remember('j', slice, bytes('plain'), 'both');
    const kept = cache.ciphertextOf('j');
    assert.notEqual(kept, slice);
    assert.equal(kept?.byteLength, kept?.buffer.byteLength);
    assert.equal(Buffer.from(kept ?? []).toString(), 'cipher-slice');
    assert.equal(cache.get('j', bytes('cipher-slice'))?.toString(), 'plain');
  });

  it('drops the least recently used entries past its byte budget, and skips oversized values', () => {
    // Each entry: 2 bytes of ciphertext + 2 of plaintext = 4 bytes; room for three.
    const cache = new PlaintextCache(12, 4);
    for (const k of ['a', 'b', 'c']) cache.remember(k, bytes(`${k}C`), bytes(`${k}P`));
    assert.ok(cache.get('a', bytes('aC'))); // a is now the most recent
    cache.remember('d', bytes('dC'), bytes('dP'));
    assert.equal(cache.get('b', bytes('bC')), undefined);
    assert.ok(cache.get('a', bytes('aC')));
    assert.ok(cache.get('c', bytes('cC')));
    assert.ok(cache.get('d', bytes('dC')));
    cache.remember('big', bytes('x'), bytes('12345'));
    assert.equal(cache.get('big', bytes('x')), undefined);
    assert.equal(cache.size, 3);
  });

  it('forgets a key on forget, and everything on clear', () => {
    const cache = new PlaintextCache();
    cache.remember('k', bytes('c'), bytes('secret'));
    cache.remember('j', bytes('d'), bytes('other'));
    cache.forget('k');
    assert.equal(cache.get('k', bytes('c')), undefined);
    assert.equal(cache.size, 1);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.get('j', bytes('d')), undefined);
  });
});
