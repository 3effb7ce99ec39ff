/** A cached OCSP verdict: only definite ones are kept, and only until the answer's nextUpdate. */
export interface CachedVerdict {
  verdict: 'good' | 'revoked';
  nextUpdateMs: number;
}

/** The established default and bounds of `ocsp_cache_size`. */
export const OCSP_CACHE_MIN = 2;
export const OCSP_CACHE_MAX = 100_000;

/**
 * The mount's OCSP answers, least recently used first (a `Map` keeps insertion order): at most
 * `capacity` of them, each valid until its `nextUpdate`. An answer without a `nextUpdate` means
 * newer information is always available (RFC 6960 §4.2.2.1), so it is never cached. Kept in each
 * server's memory, as the established method keeps it; it is lost on restart and not shared.
 */
export class OcspCache {
  readonly #entries = new Map<string, CachedVerdict>();
  #capacity = 100;

  /** Sets the bound (the config's `ocsp_cache_size`), dropping the least recently used beyond it. */
  resize(capacity: number): void {
    this.#capacity = capacity;
    this.#evict();
  }

  /** Forgets every answer (the config changed). */
  clear(): void {
    this.#entries.clear();
  }

  /** The verdict cached under `key` while its nextUpdate is after `nowMs`; a hit becomes the most recent. */
  get(key: string, nowMs: number): CachedVerdict['verdict'] | undefined {
    const found = this.#entries.get(key);
    if (!found) return undefined;
    this.#entries.delete(key);
    if (found.nextUpdateMs <= nowMs) return undefined;
    this.#entries.set(key, found);
    return found.verdict;
  }

  set(key: string, entry: CachedVerdict): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#evict();
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#capacity) break;
      this.#entries.delete(key);
    }
  }
}
