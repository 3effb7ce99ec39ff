import { timingSafeEqual } from 'node:crypto';
import { InvalidRequestError } from '../../logical/errors.js';

/** An AES-128 key is the shortest the established servers accept... */
const MIN_KEY_BYTES = 16;
/** ...and a share of an AES-256 key (32 bytes plus the x-coordinate) the longest. */
const MAX_KEY_BYTES = 33;

export const KEY_SHARE_BYTES = { min: MIN_KEY_BYTES, max: MAX_KEY_BYTES };

/**
 * Distinct key shares submitted toward a threshold (unseal, rekey, root generation). Copies
 * are kept, and zeroed when dropped.
 */
export class KeyShareSet {
  #shares: Uint8Array[] = [];

  /** Refuses a share shorter than 16 or longer than 33 bytes (`invalid key: ...`). */
  static check(share: Uint8Array): void {
    if (share.length < MIN_KEY_BYTES) {
      throw new InvalidRequestError(`invalid key: key is shorter than minimum ${MIN_KEY_BYTES} bytes`);
    }
    if (share.length > MAX_KEY_BYTES) {
      throw new InvalidRequestError(`invalid key: key is longer than maximum ${MAX_KEY_BYTES} bytes`);
    }
  }

  /** Whether `share` was submitted already (compared in constant time). */
  includes(share: Uint8Array): boolean {
    return this.#shares.some((s) => s.length === share.length && timingSafeEqual(s, share));
  }

  /** Adds a copy of `share` (checked first); answers false, adding nothing, for a repeat. */
  add(share: Uint8Array): boolean {
    KeyShareSet.check(share);
    if (this.includes(share)) return false;
    this.#shares.push(new Uint8Array(share));
    return true;
  }

  get size(): number {
    return this.#shares.length;
  }

  /** Drops every share, zeroing it. */
  clear(): void {
    for (const s of this.#shares) s.fill(0);
    this.#shares = [];
  }

  /** Hands the shares over (the caller zeroes them when done) and empties the set. */
  take(): Uint8Array[] {
    const shares = this.#shares;
    this.#shares = [];
    return shares;
  }
}
