import { InvalidRequestError } from '../logical/errors.js';

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses a duration the way established servers do: a number of seconds (`3600`, `"3600"`)
 * or a Go-style duration string (`"1h"`, `"1h30m"`, `"90s"`, `"2d"`), rounded down to whole seconds.
 */
export function parseDurationSeconds(value: unknown, fieldName: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw durationError(fieldName, value);
    return Math.floor(value);
  }
  if (typeof value !== 'string') throw durationError(fieldName, value);
  const text = value.trim();
  if (text === '') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const parts = text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/g);
  let seconds = 0;
  let consumed = 0;
  for (const [whole, amount, unit] of parts) {
    seconds += Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
    consumed += whole.length;
  }
  if (consumed !== text.length || consumed === 0) throw durationError(fieldName, value);
  return Math.floor(seconds);
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
