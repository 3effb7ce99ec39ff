import { encodeJson, getJson, type Storage, type StorageOperation } from '../../logical/storage.js';
import type { TokenEntry } from './token-entry.js';

/** Parsed entries kept in memory; past this many the oldest are dropped (they reload from storage). */
const CACHE_LIMIT = 10_000;

/** Marks a store whose accessor keys are digests (layout 2); absent in stores written before. */
const LAYOUT_KEY = 'index-layout';
const LAYOUT = 2;

/** A salted digest of an accessor, as the token store makes for token texts. */
export type AccessorDigest = (accessor: string) => string;

/**
 * The storage layout of service tokens, all below the token store's view:
 *   `id/<hash>`                              the entry (the token text is never stored)
 *   `accessor/<digest(accessor)>`            `{ hash, accessor }`, to find a token by accessor
 *   `parent/<digest(parent)>/<digest(child)>` `{ accessor }` of the child, for tree revocation
 * Keys hold digests only: storage keys are not encrypted by the barrier, and an accessor
 * read there would let anyone with the storage revoke or look up tokens through the API.
 * Every change touching more than one key is one transaction, so the indexes never
 * disagree with the entries.
 */
export class TokenIndex {
  readonly #storage: Storage;
  readonly #digest: AccessorDigest;
  /** Every authenticated request resolves its token: spare it storage and JSON parsing. */
  readonly #cache = new Map<string, TokenEntry>();
  /**
   * Counts writes. A read that raced a write (it started before the write committed) may
   * hold the old value: it must not enter the cache, or a revoked token would stay valid.
   */
  #writes = 0;

  constructor(storage: Storage, digest: AccessorDigest) {
    this.#storage = storage;
    this.#digest = digest;
  }

  /**
   * Moves a store written with accessors in its keys (layout 1) to digests, one token per
   * transaction, so an interrupted migration resumes where it stopped at the next unseal.
   */
  async migrate(): Promise<void> {
    if ((await getJson<{ layout: number }>(this.#storage, LAYOUT_KEY))?.layout === LAYOUT) return;
    for (const key of await this.#storage.list('accessor/')) {
      const ref = await getJson<{ hash: string; accessor?: string }>(this.#storage, `accessor/${key}`);
      if (!ref || ref.accessor !== undefined) continue; // already a digest key
      await this.#commit([
        { op: 'put', key: this.#accessorKey(key), value: encodeJson({ hash: ref.hash, accessor: key }) },
        { op: 'delete', key: `accessor/${key}` },
      ]);
    }
    for (const parentDir of await this.#storage.list('parent/')) {
      for (const child of await this.#storage.list(`parent/${parentDir}`)) {
        const marker = await getJson<{ accessor?: string }>(this.#storage, `parent/${parentDir}${child}`);
        if (marker?.accessor !== undefined) continue;
        await this.#commit([
          { op: 'put', key: this.#childKey(parentDir.slice(0, -1), child), value: encodeJson({ accessor: child }) },
          { op: 'delete', key: `parent/${parentDir}${child}` },
        ]);
      }
    }
    await this.#storage.put(LAYOUT_KEY, encodeJson({ layout: LAYOUT }));
  }

  /** `byHash` answered from memory: the cached entry, or `undefined` when only storage can tell. */
  cachedByHash(hash: string): TokenEntry | undefined {
    return this.#cache.get(hash);
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
    if (accessor === '') return undefined;
    const ref = await getJson<{ hash: string }>(this.#storage, this.#accessorKey(accessor));
    return ref ? this.byHash(ref.hash) : undefined;
  }

  /** Accessors of the direct children of the token with `accessor`. */
  async children(accessor: string): Promise<string[]> {
    const dir = `parent/${this.#digest(accessor)}/`;
    return this.#values(dir, await this.#storage.list(dir));
  }

  /** Every accessor in the store. */
  async accessors(): Promise<string[]> {
    return this.#values('accessor/', await this.#storage.list('accessor/'));
  }

  /** Writes a new entry with its accessor and parent links. */
  async insert(entry: TokenEntry): Promise<void> {
    const ops: StorageOperation[] = [
      { op: 'put', key: `id/${entry.hash}`, value: encodeJson(entry) },
      {
        op: 'put',
        key: this.#accessorKey(entry.accessor),
        value: encodeJson({ hash: entry.hash, accessor: entry.accessor }),
      },
    ];
    if (entry.parent_accessor) {
      const key = this.#childKey(entry.parent_accessor, entry.accessor);
      ops.push({ op: 'put', key, value: encodeJson({ accessor: entry.accessor }) });
    }
    await this.#commit(ops);
    this.#remember(entry);
  }

  /** Replaces an existing entry (uses, renewal, orphaning); indexes change only when the parent did. */
  async update(entry: TokenEntry, previousParent = entry.parent_accessor): Promise<void> {
    const ops: StorageOperation[] = [{ op: 'put', key: `id/${entry.hash}`, value: encodeJson(entry) }];
    if (previousParent && previousParent !== entry.parent_accessor) {
      ops.push({ op: 'delete', key: this.#childKey(previousParent, entry.accessor) });
    }
    await this.#commit(ops);
    this.#remember(entry);
  }

  /** Deletes the entry, its accessor and its link from its parent. */
  async remove(entry: TokenEntry): Promise<void> {
    this.#cache.delete(entry.hash);
    const ops: StorageOperation[] = [
      { op: 'delete', key: `id/${entry.hash}` },
      { op: 'delete', key: this.#accessorKey(entry.accessor) },
    ];
    if (entry.parent_accessor) ops.push({ op: 'delete', key: this.#childKey(entry.parent_accessor, entry.accessor) });
    await this.#commit(ops);
    this.#cache.delete(entry.hash);
  }

  /** Drops the cached entry for `hash`, if any: the next read goes to storage. */
  forget(hash: string): void {
    this.#writes++; // a read already under way may hold the old value: it must not enter the cache
    this.#cache.delete(hash);
  }

  /** Drops every cached entry (on seal). */
  clear(): void {
    this.#cache.clear();
  }

  #accessorKey(accessor: string): string {
    return `accessor/${this.#digest(accessor)}`;
  }

  #childKey(parentAccessor: string, childAccessor: string): string {
    return `parent/${this.#digest(parentAccessor)}/${this.#digest(childAccessor)}`;
  }

  /** The `accessor` held by each of `keys` below `dir`. */
  async #values(dir: string, keys: string[]): Promise<string[]> {
    const refs = await Promise.all(
      keys.filter((k) => !k.endsWith('/')).map((k) => getJson<{ accessor: string }>(this.#storage, `${dir}${k}`)),
    );
    return refs.flatMap((ref) => (ref ? [ref.accessor] : []));
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
