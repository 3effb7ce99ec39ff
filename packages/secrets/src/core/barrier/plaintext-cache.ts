/** Plaintext bytes the cache may hold in all; past it entries not read lately go (second chance). */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** Larger values are not cached: one of them would push out hundreds of hot small ones. */
export const DEFAULT_CACHE_ENTRY_BYTES = 64 * 1024;

interface Cached {
  ciphertext: Uint8Array;
  plaintext: Uint8Array;
  /** The plaintext decoded (frozen JSON), once a reader asked for it; dropped with the entry. */
  decoded?: unknown;
  /** Read since eviction last passed it: spared once more, and moved behind the others. */
  used: boolean;
}

/**
 * Decrypted values of recent barrier reads and writes, keyed by storage path.
 *
 * Why: a hot read (a token's policy, a KV secret) otherwise pays an AES-GCM decryption per
 * stored entry on every request, and a KV read touches two. A hit is only served when the
 * bytes storage returns now are exactly the ciphertext this plaintext came from, so the cache
 * can never answer with a stale or substituted value: whatever changed storage (another
 * process sharing the SQLite file, a restore, a tampered row) misses and goes through
 * decryption and authentication as before.
 *
 * The cache holds plaintext, as the rest of an unsealed server's memory does; the barrier
 * clears it, overwriting every value with zeroes, when it seals.
 *
 * A hit only sets a flag, it does not move the entry to the end of the map: V8 leaves a deleted
 * entry in its bucket's chain until the next rehash, so deleting and re-adding one hot key on
 * every read made each lookup walk thousands of dead copies once the map was large (145 µs per
 * hit at 50,000 entries, measured). Eviction is a second chance (CLOCK): from the oldest, a
 * flagged entry is unflagged and moved to the end, an unflagged one dropped.
 */
export class PlaintextCache {
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  /** Map order is the eviction order: the first entry is the next looked at. */
  readonly #entries = new Map<string, Cached>();
  #bytes = 0;

  constructor(maxBytes = DEFAULT_CACHE_BYTES, maxEntryBytes = DEFAULT_CACHE_ENTRY_BYTES) {
    this.#maxBytes = maxBytes;
    this.#maxEntryBytes = maxEntryBytes;
  }

  /** A copy of the plaintext of `ciphertext` at `key`, when that exact ciphertext was seen last. */
  get(key: string, ciphertext: Uint8Array): Buffer | undefined {
    const cached = this.#entries.get(key);
    if (!cached || !sameBytes(ciphertext, cached.ciphertext)) return undefined;
    cached.used = true;
    return Buffer.from(cached.plaintext); // the caller may change its buffer; ours stays as it was
  }

  /** The ciphertext held for `key`, if any (an HA server trusts it: see `AesGcmBarrier.setHaRole`). */
  ciphertextOf(key: string): Uint8Array | undefined {
    return this.#entries.get(key)?.ciphertext;
  }

  /** The decoded value kept for `ciphertext` at `key`, when that exact ciphertext was seen last and decoded. */
  decoded(key: string, ciphertext: Uint8Array): unknown {
    const cached = this.#entries.get(key);
    if (cached?.decoded === undefined || !sameBytes(ciphertext, cached.ciphertext)) return undefined;
    cached.used = true;
    return cached.decoded;
  }

  /** Keeps `decoded` (frozen) beside the plaintext of `ciphertext` at `key`, if that is still the entry held. */
  rememberDecoded(key: string, ciphertext: Uint8Array, decoded: unknown): void {
    const cached = this.#entries.get(key);
    if (cached && sameBytes(ciphertext, cached.ciphertext)) cached.decoded = decoded;
  }

  /**
   * Remembers that `ciphertext` at `key` decrypts to `plaintext`, both copied, except what
   * `handedOver` names: buffers no one will change (a ciphertext the barrier made; the bytes of a
   * put whose writer gave them up), kept as they are unless they view part of a larger buffer (a
   * pool slab, which the cache would keep alive).
   */
  remember(key: string, ciphertext: Uint8Array, plaintext: Uint8Array, handedOver: HandedOver = 'none'): void {
    const size = ciphertext.length + plaintext.length;
    const previous = this.#entries.get(key);
    if (plaintext.length > this.#maxEntryBytes || size > this.#maxBytes) {
      if (previous) this.#drop(key, previous);
      return;
    }
    const entry: Cached = {
      ciphertext: handedOver === 'none' ? new Uint8Array(ciphertext) : ownBuffer(ciphertext),
      plaintext: handedOver === 'both' ? ownBuffer(plaintext) : new Uint8Array(plaintext),
      used: false,
    };
    if (previous) {
      // Replaced where it stands (no delete and re-add of a hot key: see the class comment).
      previous.plaintext.fill(0);
      this.#bytes -= previous.ciphertext.length + previous.plaintext.length;
      entry.used = true;
    }
    this.#entries.set(key, entry);
    this.#bytes += size;
    if (this.#bytes > this.#maxBytes) this.#evict();
  }

  /** Second chance, from the oldest: a read entry is unflagged and moved to the end, an unread one dropped. */
  #evict(): void {
    // Terminates: each entry is moved at most once (it comes back unflagged), and a Map iterator
    // visits the moved entries again at the end.
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) return;
      if (entry.used) {
        entry.used = false;
        this.#entries.delete(key);
        this.#entries.set(key, entry);
      } else {
        this.#drop(key, entry);
      }
    }
  }

  forget(key: string): void {
    const cached = this.#entries.get(key);
    if (cached) this.#drop(key, cached);
  }

  /** Drops everything, overwriting each plaintext with zeroes first. */
  clear(): void {
    for (const [key, entry] of this.#entries) this.#drop(key, entry);
  }

  /** Entries held (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  #drop(key: string, entry: Cached): void {
    entry.plaintext.fill(0);
    entry.decoded = undefined;
    this.#entries.delete(key);
    this.#bytes -= entry.ciphertext.length + entry.plaintext.length;
  }
}

/** Which of the buffers given to `remember` the cache may keep without copying them. */
export type HandedOver = 'none' | 'ciphertext' | 'both';

/** `bytes` itself when it spans its whole buffer, else a copy that does. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}
