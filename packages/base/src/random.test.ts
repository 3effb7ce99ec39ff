import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cryptoRandom, randomBase62, randomUuid, SeededRandom } from './random.js';

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
});
