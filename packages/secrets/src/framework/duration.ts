import { InvalidRequestError } from '../logical/errors.js';

const NANOS_PER_SECOND = 1_000_000_000n;
const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  ms: 1_000_000n,
  s: NANOS_PER_SECOND,
  m: 60n * NANOS_PER_SECOND,
  h: 3_600n * NANOS_PER_SECOND,
  d: 86_400n * NANOS_PER_SECOND,
};

/**
 * The longest duration accepted: Go's `time.Duration` holds at most 2^63-1 nanoseconds
 * (2562047h47m16.854775807s), so established servers refuse anything longer. Capping here,
 * where every duration comes in, also keeps every expiry a representable date.
 */
export const MAX_DURATION_SECONDS = 9_223_372_036;
const MAX_DURATION_NANOS = 2n ** 63n - 1n;

/** One `<amount><unit>` part of a duration string: `1`, `1.5`, `.5` or `1.` before the unit. */
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/g;

/**
 * Parses a duration the way established servers do: a number of seconds (`3600`, `"3600"`)
 * or a Go-style duration string (`"1h"`, `"1h30m"`, `"90s"`, `"2d"`), rounded down to whole seconds.
 */
export function parseDurationSeconds(value: unknown, fieldName: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > MAX_DURATION_SECONDS) throw durationError(fieldName, value);
    return Math.floor(value);
  }
  if (typeof value !== 'string') throw durationError(fieldName, value);
  const text = value.trim();
  if (text === '') return 0;
  if (/^\d+$/.test(text)) {
    if (Number(text) > MAX_DURATION_SECONDS) throw durationError(fieldName, value);
    return Number(text);
  }
  // Summed in integer nanoseconds, as Go does: in floating point 2.05 * 60 is 122.99999999999999,
  // which would round down to 122s where Go says 123s.
  let nanos = 0n;
  let consumed = 0;
  for (const [whole, amount = '', unit = ''] of text.matchAll(PART)) {
    const scale = UNIT_NANOS[unit] ?? NANOS_PER_SECOND;
    const [integer = '', fraction = ''] = amount.split('.');
    nanos += BigInt(integer || '0') * scale;
    if (fraction !== '') nanos += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
    consumed += whole.length;
  }
  if (consumed !== text.length || consumed === 0 || nanos > MAX_DURATION_NANOS) throw durationError(fieldName, value);
  return Number(nanos / NANOS_PER_SECOND);
}

/** Formats seconds as a Go duration string (`0s`, `1h0m0s`, `90s` → `1m30s`), as KV v2 config reads show. */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

function durationError(fieldName: string, value: unknown): InvalidRequestError {
  return new InvalidRequestError(
    `Field validation failed: error converting input for field "${fieldName}": invalid duration ${JSON.stringify(value)}`,
  );
}
