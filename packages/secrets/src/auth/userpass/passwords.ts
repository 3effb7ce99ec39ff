import { InvalidRequestError } from '../../logical/errors.js';
import { bcryptHash, bcryptVerify } from './bcrypt-pool.js';

/** bcrypt's cost when the mount sets none (the established `DefaultCost`). */
export const DEFAULT_BCRYPT_COST = 10;

/** bcrypt reads at most this many bytes; longer passwords are refused, never silently truncated. */
const MAX_PASSWORD_BYTES = 72;

/**
 * bcrypt hashing and verification. Both run on low-priority worker threads (bcrypt-pool.ts),
 * so a storm of logins neither blocks the event loop nor takes the CPU away from it. Unknown users are
 * checked against a dummy hash of the same cost: both failures take the same time, and
 * timing tells nobody which names exist.
 */
export class PasswordHasher {
  readonly #cost: number;
  /** Made once, up front, so not even the first unknown-user login costs an extra hash. */
  readonly #dummy: Promise<string>;

  constructor(cost = DEFAULT_BCRYPT_COST) {
    if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new InvalidRequestError(`invalid bcrypt cost ${cost}`);
    this.#cost = cost;
    this.#dummy = bcryptHash('ward-dummy-password', cost);
  }

  /** `$2a$<cost>$...`; passwords over 72 bytes are refused rather than silently truncated. */
  async hash(password: string): Promise<string> {
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
      throw new InvalidRequestError('bcrypt: password length exceeds 72 bytes');
    }
    return bcryptHash(password, this.#cost);
  }

  /**
   * Whether `password` matches `stored`. With no stored hash, or a password longer than any
   * stored one can be (bcrypt would compare only its first 72 bytes), spends the same work
   * against the dummy and answers false.
   */
  async verify(password: string, stored: string | undefined): Promise<boolean> {
    if (stored === undefined || Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
      await bcryptVerify(password, await this.#dummy);
      return false;
    }
    return bcryptVerify(password, stored);
  }
}
