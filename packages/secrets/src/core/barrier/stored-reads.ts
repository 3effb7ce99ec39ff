import type { StorageBackend } from '../../storage/index.js';
import { AbsentKeys } from './absent-keys.js';
import type { PlaintextCache } from './plaintext-cache.js';

/** What a read found in storage. */
export interface StoredRead {
  value: Uint8Array | undefined;
  /**
   * False when the key may have changed while storage answered (an invalidation, or this barrier's
   * own write or delete of it): `value` may then be older than what the cache holds, and must not
   * replace it.
   */
  mayRemember: boolean;
  /** The decoded value the cache held for `value`, taken before storage was asked (see `read`). */
  decoded?: unknown;
}

/** Slots of the per-key write counters: a key shares one with others only at a cost of a skipped remember. */
const WRITE_SLOTS = 1024;

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
  /**
   * This barrier's writes and deletes, counted per slot of the key (a hash), so a read that one of
   * them raced does not remember what it read: per key, not in all, since under a steady stream of
   * writes (TOTP replay records) a global count would keep every other key's misses out of the cache.
   */
  readonly #writes = new Uint32Array(WRITE_SLOTS);
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
    const slot = slotOf(key);
    const writesBefore = this.#writes[slot];
    // The ciphertext cached for `key` when storage still holds exactly those bytes, asked without
    // copying the stored value out (`holds`): a hot entry is then neither copied nor compared here.
    // Inline, not a helper: one async call less on every read.
    const cached = this.#cache.ciphertextOf(key);
    // Taken now: a write of the key while storage answers replaces the entry, and this read, which
    // answers the older value, would otherwise decrypt and parse it again.
    const decoded = cached === undefined ? undefined : this.#cache.decoded(key, cached);
    const isHeld =
      cached !== undefined && this.#physical.holds !== undefined && (await this.#physical.holds(key, cached));
    const value = isHeld ? cached : await this.#physical.get(key);
    const mayRemember = before === this.#invalidations && writesBefore === this.#writes[slot];
    if (value === undefined && mayRemember && this.trustCache) this.#absent.add(key);
    return { value, mayRemember, decoded: isHeld ? decoded : undefined };
  }

  /** `key` is being written or deleted: no longer known absent, and a miss read meanwhile is not kept. */
  written(key: string): void {
    const slot = slotOf(key);
    this.#writes[slot] = (this.#writes[slot] ?? 0) + 1;
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

/** FNV-1a of the key's UTF-16 code units, folded to a slot: cheap, and only ever costs a remember. */
function slotOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % WRITE_SLOTS;
}
