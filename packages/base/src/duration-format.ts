// Imports nothing: the web UI bundles this file (`@ward/base/duration-format`).
const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MINUTE = 60n * NANOS_PER_SECOND;

/**
 * The one duration printer of ward, ward-agent and ward-platform: `nanos` as Go's
 * `time.Duration.String` prints it (`0s`, `1.5ms`, `12µs`, `1m30s`, `1h0m0s`, `-1.5s`), so
 * values read back through `parseDuration`.
 */
export function formatDuration(nanos: bigint): string {
  const sign = nanos < 0n ? '-' : '';
  const u = nanos < 0n ? -nanos : nanos;
  if (u === 0n) return '0s';
  if (u < NANOS_PER_SECOND) {
    // Below a second Go switches to the largest smaller unit that fits.
    if (u < 1_000n) return `${sign}${u}ns`;
    if (u < 1_000_000n) return `${sign}${withFraction(u, 3)}µs`;
    return `${sign}${withFraction(u, 6)}ms`;
  }
  const seconds = `${withFraction(u % NANOS_PER_MINUTE, 9)}s`;
  const minutes = u / NANOS_PER_MINUTE;
  if (minutes === 0n) return `${sign}${seconds}`;
  const hours = minutes / 60n;
  return `${sign}${hours > 0n ? `${hours}h` : ''}${minutes % 60n}m${seconds}`;
}

/** `formatDuration` of milliseconds (fractions to the nanosecond), as timers and the agent's stats count them. */
export function formatDurationMs(ms: number): string {
  return formatDuration(BigInt(Math.round(ms * 1e6)));
}

/** `formatDuration` of seconds (whole, as the secrets API stores TTLs, or with a fraction). */
export function formatDurationSeconds(seconds: number): string {
  return Number.isInteger(seconds)
    ? formatDuration(BigInt(seconds) * NANOS_PER_SECOND)
    : formatDuration(BigInt(Math.round(seconds * 1e9)));
}

/**
 * Whole seconds with the zero units left out, as the established CLI's tables print a TTL and the
 * web UI shows one: `2764800` → `768h`, `5400` → `1h30m`, `3600` → `1h`, `45` → `45s`; zero, a
 * negative or a non-finite number → `0s`, a fraction is dropped. It reads back through `parseDuration`.
 */
export function formatDurationShort(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0s';
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}

/** `value / 10^digits` in decimal, trailing zeros of the fraction (and a bare point) left out, as Go's fmtFrac. */
function withFraction(value: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const fraction = value % scale;
  if (fraction === 0n) return String(value / scale);
  return `${value / scale}.${String(fraction).padStart(digits, '0').replace(/0+$/, '')}`;
}
