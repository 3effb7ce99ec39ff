/** ACL policies: HCL/JSON parsing, storage, and the compiled ACL every request is checked against. @module */
import { InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { type Acl, compileAcl } from './acl.js';
import {
  DEFAULT_POLICY,
  DEFAULT_POLICY_TEXT,
  RESPONSE_WRAPPING_POLICY,
  RESPONSE_WRAPPING_POLICY_TEXT,
  ROOT_POLICY,
} from './builtin-policies.js';
import { OFF_THREAD_POLICY_CHARS, parseOffThread, parsePolicyAnywhere } from './parse-off-thread.js';
import type { Policy, PolicyParser } from './policy.js';

export interface PolicyStoreOptions {
  /** Where policies live, one key per name: the core hands in a barrier view of `sys/policy/`. */
  storage: Storage;
  /** Replaces the HCL/JSON parser (tests count calls with it). */
  parse?: PolicyParser;
}

/** A policy as stored and as the endpoints show it. */
export interface StoredPolicy {
  name: string;
  /** The policy text exactly as written (`''` for `root`). */
  text: string;
}

/** Distinct policy sets whose compiled ACL is kept; beyond this the oldest is dropped. */
const MAX_CACHED_ACLS = 1024;
const ROOT: Policy = Object.freeze({ name: ROOT_POLICY, paths: [] });

/**
 * Named ACL policies: CRUD in storage plus the built-ins, and the compiled `Acl` of any set
 * of names. Parsed policies and compiled ACLs are cached (by name, and by the sorted name
 * list) and dropped on any write or delete, so a request never parses or compiles.
 */
export class PolicyStore {
  readonly #storage: Storage;
  readonly #parse: PolicyParser;
  readonly #isDefaultParser: boolean;
  readonly #parsed = new Map<string, Promise<Policy | undefined>>();
  readonly #acls = new Map<string, Promise<Acl>>();
  /** The ACL each settled build in `#acls` gave, for `cachedAcl`. */
  readonly #compiled = new WeakMap<Promise<Acl>, Acl>();

  private constructor(options: PolicyStoreOptions) {
    this.#storage = options.storage;
    this.#parse = options.parse ?? parsePolicyAnywhere;
    this.#isDefaultParser = options.parse === undefined;
  }

  /** Opens the store, writing the `default` policy on first setup (an edited one is kept). */
  static async open(options: PolicyStoreOptions): Promise<PolicyStore> {
    const store = new PolicyStore(options);
    if ((await store.#storage.get(DEFAULT_POLICY)) === undefined) {
      await store.write(DEFAULT_POLICY, DEFAULT_POLICY_TEXT);
    }
    return store;
  }

  /** The named policy, `undefined` when there is none. Names are case-insensitive. */
  async read(name: string): Promise<StoredPolicy | undefined> {
    const lower = name.toLowerCase();
    if (lower === ROOT_POLICY) return { name: lower, text: '' };
    if (lower === RESPONSE_WRAPPING_POLICY) return { name: lower, text: RESPONSE_WRAPPING_POLICY_TEXT };
    const record = await getJson<{ name: string; policy: string }>(this.#storage, lower);
    return record && { name: lower, text: record.policy };
  }

  /**
   * Creates or replaces a policy after checking that it parses. The name is stored lower
   * case; `warnings` then says so, as established clients expect to be told.
   */
  async write(name: string, text: string): Promise<{ name: string; warnings: string[] }> {
    const lower = name.toLowerCase();
    if (lower === ROOT_POLICY || lower === RESPONSE_WRAPPING_POLICY) {
      throw new InvalidRequestError(`cannot update "${lower}" policy`);
    }
    // A long policy is only checked, on a worker thread: copying its rules back would hold this
    // thread for as long as the copy, and the first ACL that names it parses it (off-thread) anyway.
    const isChecked = this.#isDefaultParser && text.length > OFF_THREAD_POLICY_CHARS;
    const policy = isChecked ? await parseOffThread(lower, text, false) : await this.#parse(lower, text);
    await putJson(this.#storage, lower, { name: lower, policy: text });
    this.invalidate(lower);
    // Keep the parse just done: the next ACL that names this policy need not parse it again.
    if (policy) this.#parsed.set(lower, Promise.resolve(policy));
    return { name: lower, warnings: lower === name ? [] : [`policy name was converted to ${lower}`] };
  }

  /** Removes a policy; removing a missing one is not an error. `root`, `default` and `response-wrapping` stay. */
  async delete(name: string): Promise<void> {
    const lower = name.toLowerCase();
    if (lower === ROOT_POLICY || lower === RESPONSE_WRAPPING_POLICY) {
      throw new InvalidRequestError(`cannot delete "${lower}" policy`);
    }
    if (lower === DEFAULT_POLICY) throw new InvalidRequestError('cannot delete default policy');
    await this.#storage.delete(lower);
    this.invalidate(lower);
  }

  /** Names of the stored policies, sorted (the built-in `root` is not stored). */
  async list(): Promise<string[]> {
    return (await this.#storage.list('')).filter((key) => !key.endsWith('/'));
  }

  /**
   * The compiled ACL of a token's policies. Names that match no policy are skipped: a token
   * may name a policy before anyone writes it.
   */
  acl(names: readonly string[]): Promise<Acl> {
    // Tokens name their policies in the same order every time, so the list as given is
    // tried first: that skips lower-casing and sorting on almost every request.
    const asGiven = cacheKey(names);
    // A hit moves nothing: a Map delete and re-insert per hit leaves a dead entry in the key's
    // bucket chain until V8 rehashes, so a hot key made every lookup slower the fuller the cache
    // (BENCH.md, issue 20 change 9). Eviction drops the oldest; a set evicted is compiled again.
    const hit = this.#acls.get(asGiven);
    if (hit) return hit;
    const sorted = [...new Set(names.map((n) => n.toLowerCase()))].sort();
    const canonical = cacheKey(sorted);
    const building = this.#acls.get(canonical) ?? this.#build(sorted);
    building.then(
      (acl) => this.#compiled.set(building, acl),
      () => {
        for (const key of [asGiven, canonical]) if (this.#acls.get(key) === building) this.#acls.delete(key);
      },
    );
    while (this.#acls.size >= MAX_CACHED_ACLS - 1) this.#acls.delete(this.#acls.keys().next().value as string);
    this.#acls.set(canonical, building);
    this.#acls.set(asGiven, building);
    return building;
  }

  /** `acl(names)` when it is compiled and cached already (so a request awaits nothing), else `undefined`. */
  cachedAcl(names: readonly string[]): Acl | undefined {
    const cached = this.#acls.get(cacheKey(names));
    return cached && this.#compiled.get(cached);
  }

  async #build(names: readonly string[]): Promise<Acl> {
    const policies = await Promise.all(names.map((name) => this.#policy(name)));
    return compileAcl(policies.filter((p): p is Policy => p !== undefined));
  }

  #policy(name: string): Promise<Policy | undefined> {
    if (name === ROOT_POLICY) return Promise.resolve(ROOT);
    const cached = this.#parsed.get(name);
    if (cached) return cached;
    const loading = this.read(name).then((stored) => stored && this.#parse(name, stored.text));
    loading.catch(() => {
      if (this.#parsed.get(name) === loading) this.#parsed.delete(name);
    });
    this.#parsed.set(name, loading);
    return loading;
  }

  /**
   * Forgets what depends on a policy: its parsed form and every compiled ACL (the resolved ACL of
   * each policy set). A load or build already under way is dropped from the caches too, so a
   * result read before the change is never kept. Writes through this store call it themselves;
   * a change made by another server (a change feed on HA storage) calls it with the name.
   */
  invalidate(name: string): void {
    this.#parsed.delete(name);
    this.#acls.clear();
  }
}

/** Names joined unambiguously (length-prefixed), whatever characters they hold. */
function cacheKey(names: readonly string[]): string {
  let key = '';
  for (const name of names) key += `${name.length}:${name}`;
  return key;
}
