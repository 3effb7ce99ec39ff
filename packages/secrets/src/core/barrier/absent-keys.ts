/**
 * Keys storage was read for and did not hold, remembered by a barrier that trusts its cache (an
 * HA role: see `AesGcmBarrier.setHaRole`), so a key read again and again while missing (a KV
 * mount's `config`, which a mount without settings never has, is read on every write) is not
 * read from storage each time. The barrier drops a key here whenever it writes, deletes or
 * forgets it; the set is bounded and emptied when full.
 */
export class AbsentKeys {
  readonly #keys = new Set<string>();
  readonly #max: number;

  constructor(max = 4096) {
    this.#max = max;
  }

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  add(key: string): void {
    if (this.#keys.size >= this.#max) this.#keys.clear();
    this.#keys.add(key);
  }

  drop(key: string): void {
    this.#keys.delete(key);
  }

  clear(): void {
    this.#keys.clear();
  }
}
