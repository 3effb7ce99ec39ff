import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDurationSeconds } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import { parseDurationSeconds } from './duration.js';

describe('parseDurationSeconds', () => {
  it('takes whole seconds as a number or a digit string', () => {
    assert.equal(parseDurationSeconds(90, 'ttl'), 90);
    assert.equal(parseDurationSeconds('90', 'ttl'), 90);
    assert.equal(parseDurationSeconds(' 3600 ', 'ttl'), 3600);
    assert.equal(parseDurationSeconds(0, 'ttl'), 0);
  });

  it('drops the fraction of a number of seconds, as a Go integer conversion does', () => {
    assert.equal(parseDurationSeconds(90.9, 'ttl'), 90);
  });

  it('treats an empty string as zero', () => {
    assert.equal(parseDurationSeconds('', 'ttl'), 0);
  });

  it('parses Go duration strings with one or several units', () => {
    assert.equal(parseDurationSeconds('1h', 'ttl'), 3600);
    assert.equal(parseDurationSeconds('1h30m', 'ttl'), 5400);
    assert.equal(parseDurationSeconds('90s', 'ttl'), 90);
    assert.equal(parseDurationSeconds('2m3s', 'ttl'), 123);
    assert.equal(parseDurationSeconds('2d', 'ttl'), 172_800);
    assert.equal(parseDurationSeconds('1500ms', 'ttl'), 1);
    assert.equal(parseDurationSeconds('1.5h', 'ttl'), 5400);
    assert.equal(parseDurationSeconds('.5h', 'ttl'), 1800);
    assert.equal(parseDurationSeconds('1.5m30s', 'ttl'), 120);
  });

  it('rounds sub-second results down', () => {
    assert.equal(parseDurationSeconds('999ms', 'ttl'), 0);
    assert.equal(parseDurationSeconds('2500000us', 'ttl'), 2);
    assert.equal(parseDurationSeconds('3000000000ns', 'ttl'), 3);
  });

  it('accepts the longest duration Go can hold', () => {
    assert.equal(parseDurationSeconds('2562047h47m16s', 'ttl'), 9_223_372_036);
    assert.equal(parseDurationSeconds(9_223_372_036, 'ttl'), 9_223_372_036);
  });

  it('computes fractional amounts exactly, without binary floating-point loss', () => {
    // 2.05 * 60 is 122.99999999999999 in floating point; Go computes 123s in integers.
    assert.equal(parseDurationSeconds('2.05m', 'ttl'), 123);
    assert.equal(parseDurationSeconds('1.13h', 'ttl'), 4068);
    assert.equal(parseDurationSeconds('8.45m', 'ttl'), 507);
  });

  // Beyond Go's time.Duration (issue 12): '2562048h', '9223372037' seconds.
  for (const bad of [
    '1x',
    'h',
    '1h 30m',
    'abc',
    '-5',
    '1h-',
    '.',
    '2562048h',
    '3000000000h',
    '9223372037',
    '106752d1h',
  ]) {
    it(`refuses ${JSON.stringify(bad)} with a field validation error naming the field`, () => {
      assert.throws(
        () => parseDurationSeconds(bad, 'delete_version_after'),
        (err: unknown) =>
          err instanceof InvalidRequestError &&
          err.message.startsWith('Field validation failed: error converting input for field "delete_version_after"'),
      );
    });
  }

  for (const bad of [-1, Number.NaN, true, null, ['1h'], { h: 1 }, 9_223_372_037, 1e13]) {
    it(`refuses the non-duration value ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parseDurationSeconds(bad, 'ttl'), InvalidRequestError);
    });
  }
});

describe('formatDuration', () => {
  it('prints seconds the way Go prints a time.Duration', () => {
    assert.equal(formatDurationSeconds(0), '0s');
    assert.equal(formatDurationSeconds(45), '45s');
    assert.equal(formatDurationSeconds(90), '1m30s');
    assert.equal(formatDurationSeconds(3600), '1h0m0s');
    assert.equal(formatDurationSeconds(5400), '1h30m0s');
    assert.equal(formatDurationSeconds(86_400), '24h0m0s');
    assert.equal(formatDurationSeconds(3661), '1h1m1s');
  });

  it('reads back what parseDurationSeconds accepts', () => {
    for (const seconds of [0, 1, 59, 60, 61, 3599, 3600, 90_061]) {
      assert.equal(parseDurationSeconds(formatDurationSeconds(seconds), 'x'), seconds);
    }
  });
});
