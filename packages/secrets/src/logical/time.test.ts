import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rfc3339Precise } from './time.js';

/** The formula before the per-second prefix was kept: the reference the fast path must equal. */
const reference = (ms: number) => {
  const wholeMs = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - wholeMs) * 1000));
  return new Date(wholeMs).toISOString().replace('Z', `${String(micros).padStart(3, '0')}000Z`);
};

describe('rfc3339Precise', () => {
  it('formats nine fractional digits, as the one-call formula does, across seconds, years and 1970', () => {
    const times = [
      0, 1, 999, 999.999, 1000, 1764657296123.456, 1764657296999.999, 1764657297000, 1764657297000.001, -1, -1000.5,
      253402300799999.5, 253402300800000, 8.64e15,
    ];
    // Twice over, in order and in reverse, so the kept second is both reused and replaced.
    for (const ms of [...times, ...times.reverse()]) assert.equal(rfc3339Precise(ms), reference(ms), String(ms));
    assert.equal(rfc3339Precise(1764657296123.456), '2025-12-02T06:34:56.123456000Z');
  });
});
