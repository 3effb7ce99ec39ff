import { durationSeconds, parseDuration, parseGoBool } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import type { StorageBlock } from './storage-type.js';

/**
 * Reads the values of one `storage "<type>"` block, each error naming the block and the key:
 * `storage "postgresql": max_parallel must be a whole number`.
 */
export class BlockValues {
  readonly #block: StorageBlock;
  readonly #where: string;

  constructor(type: string, block: StorageBlock) {
    this.#block = block;
    this.#where = `storage "${type}"`;
  }

  /** An error about `key` (or the block as a whole) in this block. */
  error(message: string): InvalidRequestError {
    return new InvalidRequestError(`${this.#where}: ${message}`);
  }

  /** A non-empty string, or `undefined` when the key is absent. */
  text(key: string): string | undefined {
    const value = this.#block[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw this.error(`${key} must be a non-empty string`);
    return value;
  }

  requiredText(key: string): string {
    const value = this.text(key);
    if (value === undefined) throw this.error(`${key} is required`);
    return value;
  }

  /** `true`/`false`, written bare or quoted in Go's boolean words (`"true"`, `"1"`, `"F"`…) as the established server reads them. */
  flag(key: string, fallback: boolean): boolean {
    const value = this.#block[key];
    if (value === undefined) return fallback;
    const flag = typeof value === 'string' ? parseGoBool(value) : value;
    if (typeof flag === 'boolean') return flag;
    throw this.error(`${key} must be "true" or "false"`);
  }

  /** A whole number from `min` up, bare or quoted (`max_parallel = "128"`). */
  integer(key: string, fallback: number, min: number): number {
    const value = this.#block[key];
    if (value === undefined) return fallback;
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) {
      throw this.error(`${key} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
    }
    return n;
  }

  /** A duration (`"15s"`, or a number of seconds) within `range`. */
  seconds(key: string, fallback: number, range: { min: number; max: number }): number {
    const value = this.#block[key];
    if (value === undefined) return fallback;
    let seconds: number | undefined;
    if (typeof value === 'number' && Number.isFinite(value)) seconds = value;
    if (typeof value === 'string') {
      try {
        seconds = durationSeconds(parseDuration(value.trim(), 'api'));
      } catch {
        seconds = undefined;
      }
    }
    if (seconds === undefined || seconds < range.min || seconds > range.max) {
      throw this.error(`${key} must be from ${range.min}s to ${range.max}s, got ${JSON.stringify(value)}`);
    }
    return seconds;
  }
}
