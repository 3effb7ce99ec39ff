import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenDigestMemo } from './digest-memo.js';

describe('TokenDigestMemo', () => {
  it('keeps at most its limit, forgetting the oldest first', () => {
    const memo = new TokenDigestMemo(2);
    memo.remember('a', 'da');
    memo.remember('b', 'db');
    memo.remember('a', 'ignored: already known');
    memo.remember('c', 'dc');
    assert.equal(memo.get('a'), undefined);
    assert.equal(memo.get('b'), 'db');
    assert.equal(memo.get('c'), 'dc');
    memo.clear();
    assert.equal(memo.get('c'), undefined);
  });
});
