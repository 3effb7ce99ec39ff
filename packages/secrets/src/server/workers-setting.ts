import { InvalidRequestError } from '../logical/errors.js';

/** `workers`: how many server processes share the listeners and the storage. */
const MIN_WORKERS = 1;
const MAX_WORKERS = 64;

/**
 * `workers = N` (the file) or `-workers=N` (the flag): an integer from 1 to 64, a number or its
 * decimal text (HCL and JSON files give either). `undefined` when not given.
 */
export function parseWorkers(raw: unknown, key: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < MIN_WORKERS || n > MAX_WORKERS) {
    throw new InvalidRequestError(
      `${key} must be an integer from ${MIN_WORKERS} to ${MAX_WORKERS}, not ${JSON.stringify(raw)}`,
    );
  }
  return n;
}
