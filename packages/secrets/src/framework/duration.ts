import { DurationError, durationSeconds, MAX_DURATION_NANOS, parseDuration } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';

/**
 * The longest duration accepted, in seconds: Go's `time.Duration` holds at most 2^63-1
 * nanoseconds, so established servers refuse anything longer. Capping here, where every
 * duration comes in, also keeps every expiry a representable date.
 */
export const MAX_DURATION_SECONDS = durationSeconds(MAX_DURATION_NANOS);

/**
 * Parses a duration the way established servers do: a number of seconds (`3600`, `"3600"`)
 * or a duration string (`"1h"`, `"1h30m"`, `"90s"`, `"2d"`; see `parseDuration`'s `api`
 * style), rounded down to whole seconds. An empty string is 0 (unset).
 */
export function parseDurationSeconds(value: unknown, fieldName: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > MAX_DURATION_SECONDS) throw durationError(fieldName, value);
    return Math.floor(value);
  }
  if (typeof value !== 'string') throw durationError(fieldName, value);
  const text = value.trim();
  if (text === '') return 0;
  try {
    return durationSeconds(parseDuration(text, 'api'));
  } catch (err) {
    if (err instanceof DurationError) throw durationError(fieldName, value);
    throw err;
  }
}

function durationError(fieldName: string, value: unknown): InvalidRequestError {
  return new InvalidRequestError(
    `Field validation failed: error converting input for field "${fieldName}": invalid duration ${JSON.stringify(value)}`,
  );
}

/**
 * Refuses a negative `ttl` or `max_ttl` (seconds), and a `ttl` above a `max_ttl` that is set
 * (0 = not set), as the established engines do; `tooLong` is the message of the second refusal.
 */
export function checkTtls(ttl: number, maxTtl: number, tooLong = 'ttl cannot be greater than max_ttl'): void {
  if (ttl < 0 || maxTtl < 0) throw new InvalidRequestError('ttl and max_ttl cannot be negative');
  if (maxTtl > 0 && ttl > maxTtl) throw new InvalidRequestError(tooLong);
}
