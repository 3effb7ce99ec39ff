import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_DURATION_NANOS, parseDuration } from './duration.js';
import { formatDuration, formatDurationMs, formatDurationSeconds, formatDurationShort } from './duration-format.js';

describe('formatDuration (Go time.Duration.String)', () => {
  it('prints each unit range as Go does', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '0s'],
      [1n, '1ns'],
      [1_100n, '1.1µs'],
      [2_200_000n, '2.2ms'],
      [3_300_000_000n, '3.3s'],
      [245_000_000_000n, '4m5s'],
      [245_001_000_000n, '4m5.001s'],
      [18_367_001_000_000n, '5h6m7.001s'],
      [480_000_000_001n, '8m0.000000001s'],
      [3_600_000_000_000n, '1h0m0s'],
      [MAX_DURATION_NANOS, '2562047h47m16.854775807s'],
      [-1_500_000_000n, '-1.5s'],
      [-1n, '-1ns'],
    ];
    for (const [nanos, text] of cases) assert.equal(formatDuration(nanos), text, String(nanos));
  });

  it('reads back through parseDuration', () => {
    for (const nanos of [1n, 999n, 1_000n, 1_500_000n, 59_999_999_999n, 3_723_000_000_000n, MAX_DURATION_NANOS]) {
      assert.equal(parseDuration(formatDuration(nanos), 'go'), nanos);
    }
  });

  it('takes milliseconds (with fractions) and whole seconds', () => {
    assert.equal(formatDurationMs(0), '0s');
    assert.equal(formatDurationMs(12), '12ms');
    assert.equal(formatDurationMs(0.25), '250µs');
    assert.equal(formatDurationMs(1_500), '1.5s');
    assert.equal(formatDurationMs(90_000), '1m30s');
    assert.equal(formatDurationSeconds(45), '45s');
    assert.equal(formatDurationSeconds(90), '1m30s');
    assert.equal(formatDurationSeconds(86_400), '24h0m0s');
    assert.equal(formatDurationSeconds(1.5), '1.5s');
  });

  it('formatDurationShort leaves out the zero units, as the CLI tables and the UI print TTLs', () => {
    const cases: Array<[number, string]> = [
      [2_764_800, '768h'],
      [5400, '1h30m'],
      [3600, '1h'],
      [3601, '1h1s'],
      [90, '1m30s'],
      [45, '45s'],
      [45.9, '45s'],
      [0, '0s'],
      [-5, '0s'],
      [Number.NaN, '0s'],
      [Number.POSITIVE_INFINITY, '0s'],
    ];
    for (const [seconds, text] of cases) assert.equal(formatDurationShort(seconds), text, String(seconds));
    for (const seconds of [1, 59, 61, 3599, 86_400, 2_764_801]) {
      assert.equal(parseDuration(formatDurationShort(seconds), 'go'), BigInt(seconds) * 1_000_000_000n);
    }
  });
});
