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

/** Formats a duration the way Go prints one ("1.5s", "12ms", "0s"), for stats values. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${Math.round(ms * 1000) / 1000}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${Math.round(s * 1000) / 1000}s`;
}
