import { createHmac } from 'node:crypto';
import type { Random } from '@ward/base';
import type { Storage } from '../../logical/storage.js';

const SALT_KEY = 'salt';
const SALT_BYTES = 32;

/**
 * HMAC-SHA256 under a random salt kept in the mount's storage (made on first use). Secret
 * ids and role ids are stored only as these digests: a copy of the storage, even decrypted,
 * yields no credential, and the digest still finds its record in one lookup.
 */
export class SaltedDigest {
  #salt: Promise<Buffer> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly random: Random,
  ) {}

  /** Lower-case hex digest of `value`. */
  async of(value: string): Promise<string> {
    return createHmac('sha256', await this.#loadSalt())
      .update(value)
      .digest('hex');
  }

  #loadSalt(): Promise<Buffer> {
    this.#salt ??= (async () => {
      const stored = await this.storage.get(SALT_KEY);
      if (stored) return Buffer.from(stored);
      const fresh = this.random.bytes(SALT_BYTES);
      await this.storage.put(SALT_KEY, fresh);
      return Buffer.from(fresh);
    })();
    // A failed load (sealed mid-way) is retried by the next caller rather than cached.
    this.#salt.catch(() => {
      this.#salt = undefined;
    });
    return this.#salt;
  }
}
