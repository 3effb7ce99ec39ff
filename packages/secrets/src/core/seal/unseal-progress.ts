import { type Random, randomUuid } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { KEY_SHARE_BYTES, KeyShareSet } from './key-share-set.js';

/**
 * The key shares submitted so far toward the threshold, for one unseal attempt. An attempt
 * starts with its first share and gets a fresh nonce, which seal-status shows.
 */
export class UnsealProgress {
  readonly #random: Random;
  readonly #shares = new KeyShareSet();
  #nonce = '';

  constructor(random: Random) {
    this.#random = random;
  }

  /**
   * Adds a copy of `share`. A share already submitted in this attempt is ignored, so one
   * operator repeating a key cannot reach the threshold alone. A share shorter than 16 or
   * longer than 33 bytes is an `InvalidRequestError` (`invalid key: ...`) and is not counted.
   */
  submit(share: Uint8Array): void {
    const isFirst = this.#shares.size === 0;
    if (this.#shares.add(share) && isFirst) this.#nonce = randomUuid(this.#random);
  }

  /** Distinct shares submitted in this attempt. */
  get progress(): number {
    return this.#shares.size;
  }

  /** The attempt's UUID, or `''` when no share has been submitted. */
  get nonce(): string {
    return this.#nonce;
  }

  /** Drops the attempt, zeroing its shares. */
  reset(): void {
    this.#shares.clear();
    this.#nonce = '';
  }

  /** Hands the shares over (the caller zeroes them when done) and ends the attempt. */
  take(): Uint8Array[] {
    this.#nonce = '';
    return this.#shares.take();
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes an unseal key as the established servers do: hex first, kept only when it decodes
 * to 16–33 bytes (so a base64 key that happens to be valid hex is not misread), else standard
 * base64 with padding (line breaks ignored, as Go's decoder does). Neither is a 400.
 */
export function parseUnsealKey(text: string): Uint8Array {
  if (HEX.test(text)) {
    const length = text.length / 2;
    if (length >= KEY_SHARE_BYTES.min && length <= KEY_SHARE_BYTES.max) return new Uint8Array(Buffer.from(text, 'hex'));
  }
  const base64 = text.replace(/[\r\n]/g, '');
  if (BASE64.test(base64)) return new Uint8Array(Buffer.from(base64, 'base64'));
  throw new InvalidRequestError("'key' must be a valid hex or base64 string");
}
