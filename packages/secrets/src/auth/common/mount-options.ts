import { InvalidRequestError } from '../../logical/errors.js';

/** A non-negative integer mount option, `fallback` when absent or empty; 400 when malformed. */
export function optionInt(options: Record<string, string>, name: string, fallback: number): number {
  const raw = options[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new InvalidRequestError(`invalid option ${name}: ${raw}`);
  return n;
}
