import { type Clock, type Random, randomBase62 } from '@ward/base';
import { isAddressInCidrs, KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { LoginGrant, LoginRenewal } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import { BATCH_TOKEN_PREFIX, BatchTokenCodec } from './batch-tokens.js';
import { TokenDigestMemo } from './digest-memo.js';
import { type LoginContext, planLoginToken } from './login-token.js';
import { accessorDigest, saltedDigest } from './salted-digest.js';
import { type CreateContext, type CreateTokenRequest, type PlannedToken, planToken } from './token-create.js';
import { isLive, type TokenEntry } from './token-entry.js';
import { TokenIndex } from './token-index.js';
import { RoleStore } from './token-roles.js';
import { calculateTtl, type MountTtls } from './token-ttl.js';
import { planWrappingToken, type WrappingTokenRequest } from './wrapping-token.js';

/** Prefix of service tokens, as established clients expect: `hvs.` + 24 base62 characters. */
export const SERVICE_TOKEN_PREFIX = 'hvs.';

/** Calls the store makes into the rest of the core. */
export interface TokenStoreHooks {
  /**
   * Called for every token a revocation removes, children before parents, before its entry
   * is deleted: the expiration manager revokes the token's leases here. A throw stops the
   * revocation with that token and its ancestors still stored, so it can be retried.
   */
  onRevoke?(entry: TokenEntry): Promise<void>;
  /**
   * Called after a service token with an expiry is created: the expiration manager registers
   * its lease (`tokenLeaseId(entry)`: path `entry.path`, id suffix `entry.hash`) to revoke it on time.
   */
  onIssue?(entry: TokenEntry): Promise<void>;
  /** Called after a renewal set a new `entry.ttl` (from now): the expiration manager moves the expiry. */
  onRenew?(entry: TokenEntry): Promise<void>;
  /**
   * Called before a renewal: the current limits of the auth method that issued the token at
   * a login (its TTLs may have changed since). Resolves `undefined` for tokens no login
   * issued (their creation facts apply), `null` to leave the token unrenewed (the user is
   * gone); throws to refuse (the user's policies changed).
   */
  loginRenewal?(entry: TokenEntry): Promise<LoginRenewal | null | undefined>;
  /**
   * The id of the entity holding alias `name` at the token store's mount in `namespaceId`,
   * created with the alias if none does: a token created with a role's `entity_alias`
   * acts as that entity.
   */
  entityForAlias?(namespaceId: string, name: string): Promise<string>;
}

/** A newly issued token. `token` is shown once, in the create response, and never stored. */
export interface IssuedToken {
  token: string;
  entry: TokenEntry;
  warnings: string[];
}

/** A request's use of its token: the entry after the use, and whether it spent the last one. */
export interface TokenUse {
  entry: TokenEntry;
  isLastUse: boolean;
}

export interface LookupOptions {
  /** Also return a token whose last use was spent (the request spending it is still running). */
  includeExhausted?: boolean;
}

/**
 * Issues, resolves, renews and revokes tokens. Service tokens are stored under the HMAC of
 * their text keyed by a per-server random salt, so neither storage nor its indexes hold a
 * usable token, and lookups never compare token text. Batch tokens are sealed blobs
 * (`batch-tokens.ts`) and are never stored.
 */
export class TokenStore {
  readonly #storage: Storage;
  readonly #random: Random;
  readonly #clock: Clock;
  readonly #hooks: TokenStoreHooks;
  readonly #index: TokenIndex;
  readonly #locks = new KeyedMutex();
  /** Role records, under `roles/` of the store's storage. */
  readonly roles: RoleStore;
  #salt: Buffer | undefined;
  #batch: BatchTokenCodec | undefined;
  /** Digests of token texts that resolved: a known token's lookup skips the HMAC. */
  readonly #digests = new TokenDigestMemo();

  /** `storage` is the barrier view `sys/token/`. */
  constructor(deps: { storage: Storage; random: Random; clock: Clock; hooks?: TokenStoreHooks }) {
    this.#storage = deps.storage;
    this.#random = deps.random;
    this.#clock = deps.clock;
    this.#hooks = deps.hooks ?? {};
    this.#index = new TokenIndex(deps.storage, (accessor) => this.accessorDigest(accessor));
    this.roles = new RoleStore(deps.storage);
  }

  /** Loads or creates the salt and the batch-token key; call once after unseal. */
  async setup(): Promise<void> {
    this.#digests.clear();
    this.#salt = Buffer.from(await this.#secret('salt'));
    this.#batch = new BatchTokenCodec(await this.#secret('batch-key'), this.#random);
    await this.#index.migrate();
  }

  /** Forgets the keys and cached entries (on seal). */
  reset(): void {
    this.#salt = undefined;
    this.#batch = undefined;
    this.#digests.clear();
    this.#index.clear();
  }

  /**
   * Drops what is cached for a key of the store's storage (`id/<hash>` and so on): for a change
   * made by another server (a change feed on HA storage). Only entries (`id/<hash>`) are cached;
   * the indexes are read from storage each time. Changes made through this store need no call:
   * they update the caches themselves.
   */
  invalidate(key: string): void {
    if (key.startsWith('id/')) this.#index.forget(key.slice('id/'.length));
  }

  /** Creates a non-expiring, non-renewable root token; `id` chooses its text (dev mode's `-dev-root-token-id`). */
  async createRoot(id?: string): Promise<{ token: string; entry: TokenEntry }> {
    const token = id ?? this.#newServiceToken();
    const entry: TokenEntry = {
      hash: this.#hash(token),
      accessor: randomBase62(this.#random, 24),
      parent_accessor: '',
      policies: ['root'],
      path: 'auth/token/root',
      meta: null,
      display_name: 'root',
      num_uses: 0,
      creation_time_ms: this.#clock.now(),
      creation_ttl: 0,
      ttl: 0,
      explicit_max_ttl: 0,
      period: 0,
      renewable: false,
      type: 'service',
      bound_cidrs: [],
      role: '',
      entity_id: '',
      orphan: true,
      last_renewal_time_ms: 0,
      expire_time_ms: 0,
    };
    await this.#index.insert(entry);
    return { token, entry };
  }

  /**
   * Issues a child of `ctx.parent` (or an orphan) after the established create rules
   * (`token-create.ts`). Throws `InvalidRequestError` when a rule refuses the request.
   */
  async create(req: CreateTokenRequest, ctx: Omit<CreateContext, 'nowMs'>): Promise<IssuedToken> {
    const planned = planToken(req, { ...ctx, nowMs: this.#clock.now() });
    if (req.entityAlias && this.#hooks.entityForAlias) {
      const namespaceId = planned.entry.namespace_id ?? 'root';
      planned.entry.entity_id = await this.#hooks.entityForAlias(namespaceId, req.entityAlias.toLowerCase());
    }
    return this.#issue(planned, req.id);
  }

  /**
   * Issues the token a login grant becomes (`login-token.ts`): an orphan in the mount's
   * namespace, bound to `entityId`. Its lease is registered like any other token's.
   */
  async issueLogin(grant: LoginGrant, ctx: Omit<LoginContext, 'nowMs'>, entityId: string): Promise<IssuedToken> {
    const planned = planLoginToken(grant, { ...ctx, nowMs: this.#clock.now() });
    return this.#issue({ ...planned, entry: { ...planned.entry, entity_id: entityId } });
  }

  /** Issues a response-wrapping token (`wrapping-token.ts`); its lease is registered like any other token's. */
  async issueWrapping(req: Omit<WrappingTokenRequest, 'nowMs'>): Promise<IssuedToken> {
    return this.#issue(planWrappingToken({ ...req, nowMs: this.#clock.now() }));
  }

  async #issue({ entry: planned, warnings }: PlannedToken, id?: string): Promise<IssuedToken> {
    if (planned.type === 'batch') {
      const entry: TokenEntry = { ...planned, hash: '', accessor: '' };
      return { token: this.#codec().encode(entry), entry, warnings };
    }
    const token = id ? id : this.#newServiceToken(planned.namespace_id);
    const hash = this.#hash(token);
    if (id && (await this.#index.byHash(hash))) {
      throw new InvalidRequestError('cannot create a token with a duplicate ID');
    }
    const entry: TokenEntry = { ...planned, hash, accessor: randomBase62(this.#random, 24) };
    await this.#index.insert(entry);
    if (entry.expire_time_ms > 0) await this.#hooks.onIssue?.(entry);
    return { token, entry, warnings };
  }

  /**
   * The live entry of `token`, or `undefined` for an unknown, expired or used-up token, a
   * tampered batch token, or a batch token whose parent is gone.
   */
  async lookup(token: string, opts: LookupOptions = {}): Promise<TokenEntry | undefined> {
    if (token === '') return undefined;
    const nowMs = this.#clock.now();
    if (token.startsWith(BATCH_TOKEN_PREFIX)) {
      const entry = this.#codec().decode(token);
      if (!entry || !isLive(entry, nowMs)) return undefined;
      // A batch token with a parent lives only as long as its parent.
      if (entry.parent_accessor && !(await this.lookupAccessor(entry.parent_accessor))) return undefined;
      return entry;
    }
    const hash = this.#digests.get(token) ?? this.#hash(token);
    const entry = await this.#index.byHash(hash);
    if (entry) this.#digests.remember(token, hash);
    return entry && this.#usable(entry, nowMs, opts) ? entry : undefined;
  }

  /**
   * `lookup` answered from memory when it can be, so a request with a known token awaits nothing:
   * a service token whose digest and entry are both cached gets exactly what `lookup` would give
   * (the entry if live, else `undefined`); anything else (`null`) is for `lookup` to answer.
   */
  lookupCached(token: string): TokenEntry | undefined | null {
    const hash = this.#digests.get(token);
    const entry = hash === undefined ? undefined : this.#index.cachedByHash(hash);
    if (entry === undefined) return null;
    return isLive(entry, this.#clock.now()) ? entry : undefined;
  }

  /** The live entry with `accessor` (never carries the token text), or `undefined`. */
  async lookupAccessor(accessor: string, opts: LookupOptions = {}): Promise<TokenEntry | undefined> {
    const entry = await this.#index.byAccessor(accessor);
    return entry && this.#usable(entry, this.#clock.now(), opts) ? entry : undefined;
  }

  /** Every service token's accessor. */
  listAccessors(): Promise<string[]> {
    return this.#index.accessors();
  }

  /**
   * Spends one use of a token (call once per authenticated request, before routing).
   * Tokens with unlimited uses are untouched. Returns `isLastUse: true` when this request
   * spent the last use: the token is refused from now on, and the caller must
   * `revokeTree(entry.accessor)` once the response is ready.
   */
  useToken(entry: TokenEntry): TokenUse | Promise<TokenUse> {
    // Synchronous for the common token without a use count: nothing to await per request.
    if (entry.num_uses === 0 || entry.type === 'batch') return { entry, isLastUse: false };
    return this.#locks.run(entry.hash, async () => {
      const current = await this.#index.byHash(entry.hash);
      if (!current || current.num_uses <= 0) throw PermissionDeniedError.denied();
      const remaining = current.num_uses - 1;
      const updated = { ...current, num_uses: remaining === 0 ? -1 : remaining };
      await this.#index.update(updated);
      return { entry: updated, isLastUse: remaining === 0 };
    });
  }

  /**
   * Whether a request from `remoteAddress` may use the token: always for tokens without
   * bound CIDRs or without an expiry (root tokens), else only from inside one of them.
   */
  checkCidrs(entry: TokenEntry, remoteAddress: string): boolean {
    if (entry.bound_cidrs.length === 0 || entry.expire_time_ms === 0) return true;
    return isAddressInCidrs(entry.bound_cidrs, remoteAddress);
  }

  /**
   * Extends a token's TTL by `incrementSeconds` (0 = its original TTL) under the established
   * rules (`token-ttl.ts`), never past its explicit max or `mount.maxTtlSeconds` from creation.
   */
  async renew(entry: TokenEntry, incrementSeconds: number, mount: MountTtls): Promise<IssuedToken> {
    if (entry.type === 'batch') throw new InvalidRequestError('batch tokens cannot be renewed');
    if (!entry.renewable || entry.expire_time_ms === 0) throw new InvalidRequestError('lease is not renewable');
    return this.#locks.run(entry.hash, async () => {
      const current = await this.#index.byHash(entry.hash);
      const nowMs = this.#clock.now();
      if (!current || !isLive(current, nowMs)) throw new InvalidRequestError('lease expired');
      const limits = await this.#hooks.loginRenewal?.(current);
      if (limits === null) return { token: '', entry: current, warnings: [] };
      const period = limits ? limits.period : current.period;
      const { ttlSeconds, warnings } = calculateTtl({
        mount,
        nowMs,
        startMs: current.creation_time_ms,
        requested: incrementSeconds,
        backendTtl: limits ? limits.ttl : current.creation_ttl,
        backendMaxTtl: limits?.maxTtl ?? 0,
        explicitMaxTtl: current.explicit_max_ttl,
        period,
      });
      const updated = {
        ...current,
        period,
        ttl: ttlSeconds,
        last_renewal_time_ms: nowMs,
        expire_time_ms: nowMs + ttlSeconds * 1000,
      };
      await this.#index.update(updated);
      await this.#hooks.onRenew?.(updated);
      return { token: '', entry: updated, warnings };
    });
  }

  /** Revokes `token` and every descendant; unknown tokens are ignored; batch tokens cannot be revoked. */
  async revoke(token: string): Promise<void> {
    if (token.startsWith(BATCH_TOKEN_PREFIX)) throw new InvalidRequestError('batch tokens cannot be revoked');
    const entry = await this.#index.byHash(this.#hash(token));
    if (entry) await this.revokeTree(entry.accessor);
  }

  /**
   * Revokes the token with `accessor` and its descendants, depth first (children before
   * their parent), calling `onRevoke` for each. Expired and used-up tokens are revoked too;
   * an unknown accessor is ignored.
   */
  async revokeTree(accessor: string): Promise<void> {
    const entry = await this.#index.byAccessor(accessor);
    if (!entry) return;
    for (const child of await this.#index.children(accessor)) await this.revokeTree(child);
    await this.#destroy(entry);
  }

  /** Revokes `token` alone: its children become orphans. Unknown tokens are ignored. */
  async revokeOrphan(token: string): Promise<void> {
    if (token.startsWith(BATCH_TOKEN_PREFIX)) throw new InvalidRequestError('batch tokens cannot be revoked');
    const entry = await this.#index.byHash(this.#hash(token));
    if (!entry) return;
    for (const childAccessor of await this.#index.children(entry.accessor)) {
      const child = await this.#index.byAccessor(childAccessor);
      if (child) await this.#index.update({ ...child, parent_accessor: '', orphan: true }, child.parent_accessor);
    }
    await this.#destroy(entry);
  }

  async #destroy(entry: TokenEntry): Promise<void> {
    await this.#hooks.onRevoke?.(entry);
    await this.#index.remove(entry);
  }

  #usable(entry: TokenEntry, nowMs: number, opts: LookupOptions): boolean {
    if (opts.includeExhausted && entry.num_uses < 0) return entry.expire_time_ms === 0 || entry.expire_time_ms > nowMs;
    return isLive(entry, nowMs);
  }

  /** A random secret kept in storage, created on first use. */
  async #secret(key: string): Promise<Uint8Array> {
    const stored = await this.#storage.get(key);
    if (stored) return stored;
    const fresh = this.#random.bytes(32);
    await this.#storage.put(key, fresh);
    return fresh;
  }

  /** `hvs.` + 24 base62 characters, and `.<namespace id>` for a token of another namespace than root. */
  #newServiceToken(namespaceId = 'root'): string {
    const suffix = namespaceId === 'root' ? '' : `.${namespaceId}`;
    return `${SERVICE_TOKEN_PREFIX}${randomBase62(this.#random, 24)}${suffix}`;
  }

  #codec(): BatchTokenCodec {
    if (!this.#batch) throw new Error('token store used before setup');
    return this.#batch;
  }

  /**
   * The salted digest that names `accessor` in storage keys (the token store's indexes and the
   * expiration manager's by-token index); available once `setup` ran.
   */
  accessorDigest(accessor: string): string {
    if (!this.#salt) throw new Error('token store used before setup');
    return accessorDigest(this.#salt, accessor);
  }

  #hash(token: string): string {
    if (!this.#salt) throw new Error('token store used before setup');
    return saltedDigest(this.#salt, token);
  }
}
