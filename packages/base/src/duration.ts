import { CodedError } from './coded-error.js';

const NANOS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5 micro sign
  ['μs', 1_000n], // U+03BC Greek mu: Go accepts both
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);
const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_DAY = 86_400n * NANOS_PER_SECOND;

/**
 * Go's `time.Duration` holds at most 2^63-1 nanoseconds (2562047h47m16.854775807s); the
 * established servers refuse anything longer, and so does every binary here.
 */
export const MAX_DURATION_NANOS = 2n ** 63n - 1n;

/**
 * Which durations a caller takes:
 * - `go`: Go's `time.ParseDuration` without negatives (`"90s"`, `"1h30m"`, `"1.5h"`, `"0"`); what
 *   the scheduler's users write in the agent's flags and config.
 * - `api`: the established secrets API's extension of it: a bare integer is seconds (`"3600"`)
 *   and `<integer>d` is days (`"7d"`, but not `"1d12h"`).
 */
export type DurationStyle = 'go' | 'api';

/** Why `text` is not a duration; the message reads like Go's (`unknown unit "x" in duration "1x"`). */
export class DurationError extends CodedError<'invalid_duration'> {
  readonly code = 'invalid_duration';
  constructor(
    readonly text: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** One `<amount><unit>` part: `1`, `1.5`, `.5` or `1.` before a unit of letters. */
const PART = /^(\d+(?:\.\d*)?|\.\d+)([^\d.]*)/;

/**
 * The one duration parser of ward, ward-agent and ward-platform: `text` as integer nanoseconds,
 * summed exactly as Go does (in floating point 2.05 * 60 s would be 122.999… s). Throws a
 * `DurationError` for anything else, for a negative duration, and beyond `MAX_DURATION_NANOS`.
 */
export function parseDuration(text: string, style: DurationStyle): bigint {
  const quoted = JSON.stringify(text);
  const body = text.startsWith('+') ? text.slice(1) : text;
  if (body.startsWith('-')) throw new DurationError(text, `negative duration ${quoted}: durations cannot be negative`);
  let nanos: bigint;
  if (body === '0') nanos = 0n;
  else if (style === 'api' && /^\d+$/.test(body)) nanos = BigInt(body) * NANOS_PER_SECOND;
  else if (style === 'api' && /^\d+d$/.test(body)) nanos = BigInt(body.slice(0, -1)) * NANOS_PER_DAY;
  else nanos = sumParts(body, quoted);
  if (nanos > MAX_DURATION_NANOS)
    throw new DurationError(text, `duration ${quoted} is longer than the maximum, 2562047h47m16.854775807s`);
  return nanos;
}

function sumParts(body: string, quoted: string): bigint {
  if (body === '') throw new DurationError(body, `invalid duration ${quoted}`);
  let nanos = 0n;
  for (let rest = body; rest !== ''; ) {
    const m = PART.exec(rest);
    if (!m) throw new DurationError(body, `invalid duration ${quoted}`);
    const [whole, amount = '', unit = ''] = m;
    if (unit === '') throw new DurationError(body, `missing unit in duration ${quoted}`);
    const scale = NANOS.get(unit);
    if (scale === undefined) throw new DurationError(body, `unknown unit "${unit}" in duration ${quoted}`);
    const [integer = '', fraction = ''] = amount.split('.');
    nanos += BigInt(integer || '0') * scale;
    if (fraction !== '') nanos += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
    rest = rest.slice(whole.length);
  }
  return nanos;
}

/** Milliseconds of a duration (`1.5ms` stays 1.5), for timers. */
export function durationMs(nanos: bigint): number {
  return Number(nanos) / 1e6;
}

/** Whole seconds of a duration (rounded down), as the secrets API stores them. */
export function durationSeconds(nanos: bigint): number {
  return Number(nanos / NANOS_PER_SECOND);
}
