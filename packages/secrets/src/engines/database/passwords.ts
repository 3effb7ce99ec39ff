import type { Random } from '@ward/base';
import type { SystemView } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALL = `${LOWER}${UPPER}${DIGITS}-`;
const LENGTH = 20;

/** A uniform index below `n` (rejection sampling: no modulo bias). */
function pick(random: Random, n: number): number {
  const limit = 256 - (256 % n);
  for (;;) {
    for (const byte of random.bytes(16)) if (byte < limit) return byte % n;
  }
}

/**
 * The established default password of the database engine: 20 characters of letters, digits
 * and `-`, with at least one lower-case letter, upper-case letter, digit and dash.
 */
function defaultPassword(random: Random): string {
  const chars = [LOWER, UPPER, DIGITS, '-'].map((set) => set[pick(random, set.length)] as string);
  while (chars.length < LENGTH) chars.push(ALL[pick(random, ALL.length)] as string);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = pick(random, i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

/** A new password: from the config's password policy, else the default generator. */
export async function newPassword(policy: string, random: Random, system: SystemView): Promise<string> {
  if (!policy) return defaultPassword(random);
  try {
    return await system.generatePasswordFromPolicy(policy);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    throw new InvalidRequestError(`unable to generate password: password policy "${policy}" does not exist`);
  }
}
