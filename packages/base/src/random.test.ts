import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCryptoRandom, cryptoRandom, randomBase62, randomUuid, SeededRandom, uuidSource } from './random.js';

describe('Random', () => {
  it('gives the same bytes for the same seed and different bytes for another', () => {
    assert.deepEqual(new SeededRandom(1).bytes(40), new SeededRandom(1).bytes(40));
    assert.notDeepEqual(new SeededRandom(1).bytes(40), new SeededRandom(2).bytes(40));
  });

  it('makes base62 strings of the asked length from the base62 alphabet', () => {
    const s = randomBase62(cryptoRandom, 24);
    assert.match(s, /^[0-9A-Za-z]{24}$/);
  });

  it('makes version-4 UUIDs', () => {
    assert.match(randomUuid(cryptoRandom), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes distinct version-4 UUIDs a batch at a time, across batches', () => {
    const next = uuidSource(cryptoRandom, 4);
    const ids = Array.from({ length: 10 }, next);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('createCryptoRandom', () => {
  it('never hands out the same bytes twice, across pool refills and for large requests', () => {
    const random = createCryptoRandom();
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const hex = Buffer.from(random.bytes(12)).toString('hex');
      assert.equal(seen.has(hex), false);
      seen.add(hex);
    }
    assert.equal(random.bytes(1000).length, 1000);
    assert.notDeepEqual(random.bytes(32), random.bytes(32));
  });
});
