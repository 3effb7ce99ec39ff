import { parseGoDuration } from '@ward/base';
import { ConfigError } from './errors.js';

/** Parses Go-style durations as the established config uses ("250ms", "5s", "1m30s"); a bare number is ms. */
export function parseDurationMs(value: string | number, what: string): number {
  if (typeof value === 'number') return value;
  if (/^\d+$/.test(value)) return Number(value);
  const nanos = parseGoDuration(value);
  if (nanos === undefined) throw new ConfigError(`invalid duration for ${what}: ${JSON.stringify(value)}`);
  return Number(nanos) / 1e6;
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
