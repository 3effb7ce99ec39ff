import { createHmac } from 'node:crypto';
import { type Clock, type Random, randomBase62 } from '@ward/base';
import { getJson, type Storage } from '../../logical/storage.js';
import type { TokenEntry } from './token-entry.js';

/** Prefix of service tokens, as established clients expect (`hvs.` + 24 base62 characters for root tokens). */
export const SERVICE_TOKEN_PREFIX = 'hvs.';

/**
 * Issues and resolves tokens. Entries are stored under the HMAC of the token keyed by a
 * per-server random salt, so neither storage nor its index holds a usable token, and a
 * lookup never compares token text (no timing side channel on the token value).
 */
export class TokenStore {
  readonly #storage: Storage;
  readonly #random: Random;
  readonly #clock: Clock;
  #salt: Buffer | undefined;
  /** Parsed entries by HMAC: every authenticated request resolves its token, so avoid storage + JSON each time. */
  readonly #cache = new Map<string, TokenEntry>();

  /** `storage` is the barrier view `sys/token/`. */
  constructor(deps: { storage: Storage; random: Random; clock: Clock }) {
    this.#storage = deps.storage;
    this.#random = deps.random;
    this.#clock = deps.clock;
  }

  /** Loads or creates the salt; call once after unseal. */
  async setup(): Promise<void> {
    const stored = await this.#storage.get('salt');
    if (stored) {
      this.#salt = Buffer.from(stored);
      return;
    }
    const salt = this.#random.bytes(32);
    await this.#storage.put('salt', salt);
    this.#salt = Buffer.from(salt);
  }

  /** Forgets the salt and cached entries (on seal). */
  reset(): void {
    this.#salt = undefined;
    this.#cache.clear();
  }

  /** Creates a non-expiring root token; `id` chooses its text (dev mode's `-dev-root-token-id`). */
  async createRoot(id?: string): Promise<{ token: string; entry: TokenEntry }> {
    const token = id ?? `${SERVICE_TOKEN_PREFIX}${randomBase62(this.#random, 24)}`;
    const entry: TokenEntry = {
      accessor: randomBase62(this.#random, 24),
      policies: ['root'],
      path: 'auth/token/root',
      meta: null,
      display_name: 'root',
      num_uses: 0,
      creation_time: Math.floor(this.#clock.now() / 1000),
      ttl: 0,
      explicit_max_ttl: 0,
      entity_id: '',
      type: 'service',
      parent_accessor: '',
    };
    await this.#write(this.#hash(token), entry);
    return { token, entry };
  }

  /** The live entry of `token`, or `undefined` for an unknown or expired token. */
  async lookup(token: string): Promise<TokenEntry | undefined> {
    if (token === '') return undefined;
    const hash = this.#hash(token);
    const entry = this.#cache.get(hash) ?? (await getJson<TokenEntry>(this.#storage, `id/${hash}`));
    if (!entry) return undefined;
    if (entry.ttl > 0 && (entry.creation_time + entry.ttl) * 1000 <= this.#clock.now()) return undefined;
    this.#cache.set(hash, entry);
    return entry;
  }

  /** Removes `token` and its accessor index; unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    const hash = this.#hash(token);
    const entry = await this.lookup(token);
    this.#cache.delete(hash);
    if (!entry) return;
    await this.#storage.transaction([
      { op: 'delete', key: `id/${hash}` },
      { op: 'delete', key: `accessor/${entry.accessor}` },
    ]);
  }

  async #write(hash: string, entry: TokenEntry): Promise<void> {
    const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    await this.#storage.transaction([
      { op: 'put', key: `id/${hash}`, value: encode(entry) },
      { op: 'put', key: `accessor/${entry.accessor}`, value: encode({ hash }) },
    ]);
    this.#cache.set(hash, entry);
  }

  #hash(token: string): string {
    if (!this.#salt) throw new Error('token store used before setup');
    return createHmac('sha256', this.#salt).update(token).digest('hex');
  }
}
