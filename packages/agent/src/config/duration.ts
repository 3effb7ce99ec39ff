import { DurationError, durationMs, parseDuration } from '@ward/base';
import { ConfigError } from './errors.js';

/**
 * A config file's duration (`"250ms"`, `"5s"`, `"1m30s"`, `"0"`) in milliseconds, with Go's
 * rules as the scheduler's users know them: a number needs its unit.
 */
export function parseDurationMs(value: unknown, what: string): number {
  try {
    // An HCL number is read as Go reads the string of its digits: only 0 goes without a unit.
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string') throw new DurationError('', `invalid duration ${JSON.stringify(value)}`);
    return durationMs(parseDuration(text, 'go'));
  } catch (err) {
    if (err instanceof DurationError) throw new ConfigError(`${what}: ${err.message}`);
    throw err;
  }
}
