import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DurationError, durationMs, durationSeconds, MAX_DURATION_NANOS, parseDuration } from './duration.js';

const H = 3_600_000_000_000n;
const S = 1_000_000_000n;

const refusal = (text: string, style: 'go' | 'api'): string => {
  try {
    parseDuration(text, style);
  } catch (err) {
    assert.ok(err instanceof DurationError, text);
    return err.message;
  }
  assert.fail(`${JSON.stringify(text)} was accepted (${style})`);
};

describe('parseDuration (the one duration parser of ward, ward-agent and ward-platform)', () => {
  it('sums Go-style parts exactly, in nanoseconds', () => {
    for (const style of ['go', 'api'] as const) {
      assert.equal(parseDuration('250ms', style), 250_000_000n);
      assert.equal(parseDuration('1h30m', style), 5_400_000_000_000n);
      assert.equal(parseDuration('1.5h', style), 5_400_000_000_000n);
      assert.equal(parseDuration('2.05m', style), 123n * S);
      assert.equal(parseDuration('.5s', style), S / 2n);
      assert.equal(parseDuration('1.s', style), S);
      assert.equal(parseDuration('1µs1μs1us1ns', style), 3_001n);
      assert.equal(parseDuration('+90s', style), 90n * S);
      assert.equal(parseDuration('0', style), 0n);
      assert.equal(parseDuration('0s', style), 0n);
    }
  });

  it('takes Go’s longest duration and refuses one nanosecond more', () => {
    assert.equal(parseDuration('2562047h47m16.854775807s', 'go'), MAX_DURATION_NANOS);
    assert.equal(parseDuration('9223372036854775807ns', 'go'), MAX_DURATION_NANOS);
    for (const text of ['2562047h47m16.854775808s', '2562048h', '9223372036854775808ns', '99999999999999999999h'])
      assert.match(refusal(text, 'go'), /is longer than the maximum, 2562047h47m16\.854775807s$/, text);
    assert.equal(parseDuration('9223372036', 'api'), 9_223_372_036n * S);
    assert.match(refusal('9223372037', 'api'), /longer than the maximum/);
    assert.match(refusal('106752d', 'api'), /longer than the maximum/);
  });

  it('refuses negative durations, which no setting of ours means', () => {
    for (const style of ['go', 'api'] as const) {
      assert.equal(refusal('-1s', style), 'negative duration "-1s": durations cannot be negative');
      assert.match(refusal('-0', style), /negative/);
      assert.match(refusal('-5', style), /negative/);
    }
  });

  it('reads a bare integer as seconds and <N>d as days only in the secrets API style', () => {
    assert.equal(parseDuration('3600', 'api'), H);
    assert.equal(parseDuration('7d', 'api'), 7n * 24n * H);
    assert.equal(refusal('3600', 'go'), 'missing unit in duration "3600"');
    assert.equal(refusal('7d', 'go'), 'unknown unit "d" in duration "7d"');
    // The established API takes days only as a whole `<integer>d`.
    assert.equal(refusal('1d12h', 'api'), 'unknown unit "d" in duration "1d12h"');
    assert.match(refusal('1.5d', 'api'), /unknown unit "d"/);
    assert.equal(refusal('1.5', 'api'), 'missing unit in duration "1.5"');
  });

  it('refuses anything that is not wholly a duration, saying why', () => {
    assert.equal(refusal('', 'go'), 'invalid duration ""');
    assert.equal(refusal('5x', 'go'), 'unknown unit "x" in duration "5x"');
    assert.equal(refusal('1H', 'go'), 'unknown unit "H" in duration "1H"');
    assert.equal(refusal('1h30', 'go'), 'missing unit in duration "1h30"');
    assert.equal(refusal('h', 'go'), 'invalid duration "h"');
    assert.equal(refusal('.s', 'go'), 'invalid duration ".s"');
    for (const text of ['1h 30m', ' 1h', '1s!', '1..5s', '1e3s', '0x10s'])
      assert.throws(() => parseDuration(text, 'api'), DurationError, text);
  });

  it('converts to the units callers keep', () => {
    assert.equal(durationMs(parseDuration('1.5ms', 'go')), 1.5);
    assert.equal(durationMs(parseDuration('2s', 'go')), 2000);
    assert.equal(durationSeconds(parseDuration('1500ms', 'api')), 1);
    assert.equal(durationSeconds(MAX_DURATION_NANOS), 9_223_372_036);
  });
});
