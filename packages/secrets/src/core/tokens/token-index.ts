import { encodeJson, getJson, type Storage, type StorageOperation } from '../../logical/storage.js';
import type { TokenEntry } from './token-entry.js';

/** Parsed entries kept in memory; past this many the oldest are dropped (they reload from storage). */
const CACHE_LIMIT = 10_000;

/**
 * The storage layout of service tokens, all below the token store's view:
 *   `id/<hash>`                     the entry (the token text is never stored)
 *   `accessor/<accessor>`           `{ hash }`, to find a token by accessor
 *   `parent/<parent>/<child>`       one marker per child, keyed by accessors, for tree revocation
 * Every change touching more than one key is one transaction, so the indexes never
 * disagree with the entries.
 */
export class TokenIndex {
  readonly #storage: Storage;
  /** Every authenticated request resolves its token: spare it storage and JSON parsing. */
  readonly #cache = new Map<string, TokenEntry>();
  /**
   * Counts writes. A read that raced a write (it started before the write committed) may
   * hold the old value: it must not enter the cache, or a revoked token would stay valid.
   */
  #writes = 0;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  /** The stored entry for `hash`, expired or not. */
  async byHash(hash: string): Promise<TokenEntry | undefined> {
    const cached = this.#cache.get(hash);
    if (cached) return cached;
    const writesBefore = this.#writes;
    const entry = await getJson<TokenEntry>(this.#storage, `id/${hash}`);
    if (entry && this.#writes === writesBefore) this.#remember(entry);
    return entry;
  }

  /** The stored entry for `accessor`, expired or not. */
  async byAccessor(accessor: string): Promise<TokenEntry | undefined> {
    if (accessor === '' || accessor.includes('/')) return undefined;
    const ref = await getJson<{ hash: string }>(this.#storage, `accessor/${accessor}`);
    return ref ? this.byHash(ref.hash) : undefined;
  }

  /** Accessors of the direct children of the token with `accessor`. */
  async children(accessor: string): Promise<string[]> {
    return (await this.#storage.list(`parent/${accessor}/`)).filter((k) => !k.endsWith('/'));
  }

  /** Every accessor in the store. */
  accessors(): Promise<string[]> {
    return this.#storage.list('accessor/');
  }

  /** Writes a new entry with its accessor and parent links. */
  async insert(entry: TokenEntry): Promise<void> {
    const ops: StorageOperation[] = [
      { op: 'put', key: `id/${entry.hash}`, value: encodeJson(entry) },
      { op: 'put', key: `accessor/${entry.accessor}`, value: encodeJson({ hash: entry.hash }) },
    ];
    if (entry.parent_accessor) {
      ops.push({ op: 'put', key: `parent/${entry.parent_accessor}/${entry.accessor}`, value: encodeJson({}) });
    }
    await this.#commit(ops);
    this.#remember(entry);
  }

  /** Replaces an existing entry (uses, renewal, orphaning); indexes change only when the parent did. */
  async update(entry: TokenEntry, previousParent = entry.parent_accessor): Promise<void> {
    const ops: StorageOperation[] = [{ op: 'put', key: `id/${entry.hash}`, value: encodeJson(entry) }];
    if (previousParent && previousParent !== entry.parent_accessor) {
      ops.push({ op: 'delete', key: `parent/${previousParent}/${entry.accessor}` });
    }
    await this.#commit(ops);
    this.#remember(entry);
  }

  /** Deletes the entry, its accessor and its link from its parent. */
  async remove(entry: TokenEntry): Promise<void> {
    this.#cache.delete(entry.hash);
    const ops: StorageOperation[] = [
      { op: 'delete', key: `id/${entry.hash}` },
      { op: 'delete', key: `accessor/${entry.accessor}` },
    ];
    if (entry.parent_accessor) ops.push({ op: 'delete', key: `parent/${entry.parent_accessor}/${entry.accessor}` });
    await this.#commit(ops);
    this.#cache.delete(entry.hash);
  }

  /** Drops every cached entry (on seal). */
  clear(): void {
    this.#cache.clear();
  }

  async #commit(ops: StorageOperation[]): Promise<void> {
    this.#writes++;
    try {
      await this.#storage.transaction(ops);
    } finally {
      this.#writes++;
    }
  }

  #remember(entry: TokenEntry): void {
    this.#cache.delete(entry.hash);
    if (this.#cache.size >= CACHE_LIMIT) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(entry.hash, entry);
  }
}
