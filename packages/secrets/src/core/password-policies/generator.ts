import type { Random } from '@ward/base';
import { CodedError } from '@ward/base';
import type { PasswordPolicy } from './policy-text.js';

/**
 * Candidates tried before giving up on a policy whose rules are (nearly) impossible to meet.
 * The established servers give up after one second; a count keeps the outcome independent
 * of the machine's speed and of the clock.
 */
export const MAX_ATTEMPTS = 10_000;

/** Rules not met by any of `MAX_ATTEMPTS` candidates. */
export class PolicyGenerationError extends CodedError<'password_generation_failed'> {
  readonly code = 'password_generation_failed';
}

/**
 * `n` characters drawn uniformly from `alphabet` (≤ 256 entries). A byte at or above the
 * largest multiple of the alphabet size below 256 is discarded, so no character is favoured
 * (rejection sampling, no modulo bias).
 */
export function randomChars(random: Random, alphabet: readonly string[], n: number): string {
  const size = alphabet.length;
  const limit = 256 - (256 % size);
  let out = '';
  let count = 0;
  while (count < n) {
    for (const byte of random.bytes(n - count + 8)) {
      if (byte >= limit) continue;
      out += alphabet[byte % size];
      if (++count === n) break;
    }
  }
  return out;
}

/** A password from `policy`: candidates from the alphabet until one meets every rule's minimum. */
export function generatePassword(policy: PasswordPolicy, random: Random): string {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const candidate = randomChars(random, policy.alphabet, policy.length);
    if (meetsRules(policy, candidate)) return candidate;
  }
  throw new PolicyGenerationError(`no password met the rules after ${MAX_ATTEMPTS} attempts`);
}

function meetsRules(policy: PasswordPolicy, candidate: string): boolean {
  const chars = [...candidate];
  return policy.rules.every((rule) => {
    if (rule.minChars === 0) return true;
    const set = new Set(rule.charset);
    let found = 0;
    for (const c of chars) if (set.has(c) && ++found >= rule.minChars) return true;
    return false;
  });
}
