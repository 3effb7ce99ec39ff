import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoDuration } from './duration.js';

describe('parseGoDuration (the one duration parser of ward, ward-agent and ward-platform)', () => {
  it('sums Go-style parts exactly, in nanoseconds', () => {
    assert.equal(parseGoDuration('250ms'), 250_000_000n);
    assert.equal(parseGoDuration('1h30m'), 5_400_000_000_000n);
    assert.equal(parseGoDuration('2.05m'), 123_000_000_000n);
    assert.equal(parseGoDuration('1.5s'), 1_500_000_000n);
    assert.equal(parseGoDuration('2d'), 172_800_000_000_000n);
  });

  it('refuses anything that is not wholly a duration', () => {
    for (const text of ['', '5', '5x', '1h 30m', 'h', '-1s', '1s!'])
      assert.equal(parseGoDuration(text), undefined, text);
  });
});
