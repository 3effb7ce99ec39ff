import type { StorageBackend } from '../../storage/index.js';
import { AbsentKeys } from './absent-keys.js';
import type { PlaintextCache } from './plaintext-cache.js';

/** What a read found in storage; `mayRemember` is false when an invalidation came while storage answered. */
export interface StoredRead {
  value: Uint8Array | undefined;
  mayRemember: boolean;
}

/**
 * How the barrier reads ciphertext from storage, and what it may believe about it afterwards:
 * the cache's copy when storage still holds those exact bytes (or, trusting the cache in an HA
 * role, without asking), the keys known to be absent, and the counters that keep a read which
 * raced an invalidation or a write from putting stale knowledge back.
 */
export class StoredReads {
  readonly #physical: StorageBackend;
  readonly #cache: PlaintextCache;
  /** Keys storage did not hold when last read, trusted like the cache in an HA role only. */
  readonly #absent = new AbsentKeys();
  /** Counts invalidations, so a read that raced one does not put back what it dropped. */
  #invalidations = 0;
  /** Counts this barrier's writes, so a miss read while one was under way is not remembered. */
  #writes = 0;
  /** In an HA role the barrier is the one writer or follows the change feed: see `AesGcmBarrier.setHaRole`. */
  trustCache = false;

  constructor(physical: StorageBackend, cache: PlaintextCache) {
    this.#physical = physical;
    this.#cache = cache;
  }

  /** The stored ciphertext at `key`: when the cache is trusted, the one it holds when it holds one. */
  async read(key: string): Promise<StoredRead> {
    if (this.trustCache) {
      const held = this.#cache.ciphertextOf(key);
      if (held) return { value: held, mayRemember: true };
      if (this.#absent.has(key)) return { value: undefined, mayRemember: true };
    }
    const before = this.#invalidations;
    const writesBefore = this.#writes;
    // The ciphertext cached for `key` when storage still holds exactly those bytes, asked without
    // copying the stored value out (`holds`): a hot entry is then neither copied nor compared here.
    // Inline, not a helper: one async call less on every read.
    const cached = this.#cache.ciphertextOf(key);
    const isHeld =
      cached !== undefined && this.#physical.holds !== undefined && (await this.#physical.holds(key, cached));
    const value = isHeld ? cached : await this.#physical.get(key);
    const mayRemember = before === this.#invalidations;
    if (value === undefined && mayRemember && writesBefore === this.#writes && this.trustCache) {
      this.#absent.add(key);
    }
    return { value, mayRemember };
  }

  /** `key` is being written or deleted: no longer known absent, and a miss read meanwhile is not kept. */
  written(key: string): void {
    this.#writes++;
    this.#absent.drop(key);
  }

  /** Another server changed `key`: its cached value and absence go. */
  forget(key: string): void {
    this.#invalidations++;
    this.#cache.forget(key);
    this.#absent.drop(key);
  }

  /** Every cached value and absence goes (a change of role, a reload, a seal). */
  forgetAll(): void {
    this.#invalidations++;
    this.#cache.clear();
    this.#absent.clear();
  }
}
