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

/** The RFC 6238 time step of `unixSeconds`. */
function counterAt(unixSeconds: number, periodSeconds: number): bigint {
  return BigInt(Math.floor(unixSeconds / periodSeconds));
}

/** The TOTP code of the step containing `unixSeconds`. */
export function totp(p: OtpParams, unixSeconds: number): string {
  return hotp(p.secret, counterAt(unixSeconds, p.periodSeconds), p.algorithm, p.digits);
}

/**
 * Whether `code` is the code of the current step or of one of the `skew` steps either
 * side (current, then +1 and −1, …, as established servers try them). A code of the
 * wrong length is simply not valid. Each candidate is compared in constant time and all
 * are compared, so the answer's timing tells nothing about which step matched.
 */
export function isValidCode(p: OtpParams, code: string, unixSeconds: number, skew: number): boolean {
  const given = Buffer.from(code, 'utf8');
  if (given.length !== p.digits) return false;
  const counter = counterAt(unixSeconds, p.periodSeconds);
  const steps = [counter];
  for (let i = 1n; i <= BigInt(skew); i++) steps.push(counter + i, counter - i);
  let valid = false;
  for (const step of steps) {
    const expected = Buffer.from(hotp(p.secret, step, p.algorithm, p.digits), 'utf8');
    if (timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}
