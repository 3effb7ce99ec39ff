import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OcspCache } from './ocsp-cache.js';

// Issue 31 point 4: OCSP answers kept at most ocsp_cache_size, least recently used out first, until nextUpdate.
describe('OcspCache', () => {
  it('keeps an answer until its nextUpdate', () => {
    const cache = new OcspCache();
    cache.set('a', { verdict: 'good', nextUpdateMs: 1000 });
    assert.equal(cache.get('a', 999), 'good');
    assert.equal(cache.get('a', 1000), undefined);
    assert.equal(cache.get('a', 0), undefined, 'an expired answer is dropped');
  });

  it('drops the least recently used beyond its size, and when resized', () => {
    const cache = new OcspCache();
    cache.resize(2);
    cache.set('a', { verdict: 'good', nextUpdateMs: 1e9 });
    cache.set('b', { verdict: 'revoked', nextUpdateMs: 1e9 });
    assert.equal(cache.get('a', 0), 'good', 'a is now the most recent');
    cache.set('c', { verdict: 'good', nextUpdateMs: 1e9 });
    assert.equal(cache.get('b', 0), undefined, 'b was the least recently used');
    assert.equal(cache.get('a', 0), 'good');
    cache.resize(1);
    assert.equal(cache.get('c', 0), undefined);
    assert.equal(cache.get('a', 0), 'good');
    cache.clear();
    assert.equal(cache.get('a', 0), undefined);
  });
});
