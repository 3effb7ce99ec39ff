import { createHmac, timingSafeEqual } from 'node:crypto';

/** The HMAC algorithms of RFC 6238, by their wire names. */
export const ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

const NODE_HASH: Record<Algorithm, string> = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

/** What code generation needs of a key. */
export interface OtpParams {
  secret: Uint8Array;
  algorithm: Algorithm;
  /** 6 or 8. */
  digits: number;
  periodSeconds: number;
}

/**
 * RFC 4226 HOTP: HMAC over the 8-byte big-endian counter, dynamic truncation to 31 bits,
 * the last `digits` decimal digits, zero-padded. The counter wraps to 64 bits as Go's
 * `uint64` conversion does, so "one step before step 0" is 2^64 − 1.
 */
export function hotp(secret: Uint8Array, counter: bigint, algorithm: Algorithm, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt.asUintN(64, counter));
  const mac = createHmac(NODE_HASH[algorithm], secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code of the step containing `unixSeconds`. */
export function totp(p: OtpParams, unixSeconds: number): string {
  return hotp(p.secret, BigInt(stepAt(unixSeconds, p.periodSeconds)), p.algorithm, p.digits);
}

/**
 * Whether `code` is the code of the current step or of one of the `skew` steps either
 * side (current, then +1 and −1, …, as established servers try them). A code of the
 * wrong length is simply not valid.
 */
export function isValidCode(p: OtpParams, code: string, unixSeconds: number, skew: number): boolean {
  return matchesAny(windowCodes(p, stepAt(unixSeconds, p.periodSeconds), skew), code);
}

/** The RFC 6238 time step of `unixSeconds`, as a number (exact: far below 2^53). */
export function stepAt(unixSeconds: number, periodSeconds: number): number {
  return Math.floor(unixSeconds / periodSeconds);
}

/** The UTF-8 codes of `step` and of the `skew` steps either side, in the order established servers try them. */
export function windowCodes(p: OtpParams, step: number, skew: number): Buffer[] {
  const counter = BigInt(step);
  const steps = [counter];
  for (let i = 1n; i <= BigInt(skew); i++) steps.push(counter + i, counter - i);
  return steps.map((s) => Buffer.from(hotp(p.secret, s, p.algorithm, p.digits), 'utf8'));
}

/**
 * Whether `code` is one of `expected` (all of one length). Each candidate is compared in
 * constant time and all are compared, so the answer's timing tells nothing about which matched.
 */
export function matchesAny(expected: readonly Buffer[], code: string): boolean {
  const given = Buffer.from(code, 'utf8');
  if (given.length !== expected[0]?.length) return false;
  let valid = false;
  for (const candidate of expected) {
    if (timingSafeEqual(candidate, given)) valid = true;
  }
  return valid;
}
