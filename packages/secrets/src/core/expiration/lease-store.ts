import type { Logger } from '@ward/base';
import { encodeJson, getJson, putJson, type Storage, type StorageOperation } from '../../logical/storage.js';
import { hashLeaseId, isLeaseEntry, type LeaseEntry, leaseKey, tokenIndexKey, tokenIndexPrefix } from './lease.js';

/** Entries read in parallel during restore: the barrier decrypts each one. */
const LOAD_BATCH = 256;

/** Marks a store whose by-token index is named by accessor digests (layout 2); absent before. */
const LAYOUT_KEY = 'index-layout';
const LAYOUT = 2;

/**
 * Where leases live on disk (layout in `lease.ts`). A lease and its by-token index entry are
 * written and removed in one transaction, so a crash never leaves one without the other.
 */
export class LeaseStore {
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #digest: (accessor: string) => string;

  constructor(storage: Storage, logger: Logger, accessorDigest: (accessor: string) => string) {
    this.#storage = storage;
    this.#logger = logger;
    this.#digest = accessorDigest;
  }

  /**
   * Moves a by-token index written with accessors in its keys (layout 1) to accessor digests.
   * Each entry moves in one transaction (new key written, old one deleted), and an entry
   * already under its digest is left alone, so a migration cut short resumes at the next
   * unseal; `entries` are the leases `loadAll` returned. Entries of no lease are dropped.
   */
  async migrateIndex(entries: LeaseEntry[]): Promise<void> {
    if ((await getJson<{ layout: number }>(this.#storage, LAYOUT_KEY))?.layout === LAYOUT) return;
    const leases = new Map(entries.map((e) => [e.lease_id, e]));
    let moved = 0;
    for (const dir of await this.#storage.list('token/')) {
      for (const hash of await this.#storage.list(`token/${dir}`)) {
        const key = `token/${dir}${hash}`;
        const leaseId = await getJson<unknown>(this.#storage, key);
        const lease = typeof leaseId === 'string' ? leases.get(leaseId) : undefined;
        const target = lease?.token_accessor ? tokenIndexKey(this.#digest(lease.token_accessor), lease.lease_id) : '';
        if (key === target) continue;
        const ops: StorageOperation[] = [{ op: 'delete', key }];
        if (target !== '') ops.unshift({ op: 'put', key: target, value: encodeJson(leaseId) });
        await this.#storage.transaction(ops);
        moved++;
      }
    }
    await putJson(this.#storage, LAYOUT_KEY, { layout: LAYOUT });
    this.#logger.info('lease index moved to accessor digests', { moved });
  }

  /** Every persisted lease; an unreadable entry is logged and skipped rather than blocking unseal. */
  async loadAll(): Promise<LeaseEntry[]> {
    const keys = await this.#storage.list('id/');
    const out: LeaseEntry[] = [];
    for (let i = 0; i < keys.length; i += LOAD_BATCH) {
      const batch = keys.slice(i, i + LOAD_BATCH).filter((k) => !k.endsWith('/'));
      const values = await Promise.all(batch.map((k) => this.#read(`id/${k}`)));
      for (const value of values) if (value) out.push(value);
    }
    return out;
  }

  /** Writes a new lease and its index entry. */
  async create(entry: LeaseEntry): Promise<void> {
    const hash = hashLeaseId(entry.lease_id);
    const ops: StorageOperation[] = [{ op: 'put', key: leaseKey(entry.lease_id, hash), value: encodeJson(entry) }];
    if (entry.token_accessor !== '') {
      const key = tokenIndexKey(this.#digest(entry.token_accessor), entry.lease_id, hash);
      ops.push({ op: 'put', key, value: encodeJson(entry.lease_id) });
    }
    await this.#storage.transaction(ops);
  }

  /** Rewrites an existing lease (its index entry does not change). */
  async update(entry: LeaseEntry): Promise<void> {
    await putJson(this.#storage, leaseKey(entry.lease_id), entry);
  }

  /** Deletes a lease and its index entry. */
  async remove(entry: LeaseEntry): Promise<void> {
    const hash = hashLeaseId(entry.lease_id);
    const ops: StorageOperation[] = [{ op: 'delete', key: leaseKey(entry.lease_id, hash) }];
    if (entry.token_accessor !== '') {
      ops.push({ op: 'delete', key: tokenIndexKey(this.#digest(entry.token_accessor), entry.lease_id, hash) });
    }
    await this.#storage.transaction(ops);
  }

  /** IDs of every lease indexed under a token, its own token lease included. */
  async leaseIdsOfToken(accessor: string): Promise<string[]> {
    const prefix = tokenIndexPrefix(this.#digest(accessor));
    const hashes = await this.#storage.list(prefix);
    const ids = await Promise.all(hashes.map((h) => getJson<string>(this.#storage, prefix + h)));
    return ids.filter((id): id is string => typeof id === 'string');
  }

  /** Drops an index entry whose lease is gone (left by a lease removed outside this store). */
  async removeIndexEntry(accessor: string, leaseId: string): Promise<void> {
    await this.#storage.delete(tokenIndexKey(this.#digest(accessor), leaseId));
  }

  /**
   * Deletes index entries whose lease no longer exists (left behind if a crash or an old
   * version removed a lease without its index entry); returns how many went.
   */
  async tidyIndex(isLive: (leaseId: string) => boolean): Promise<number> {
    let removed = 0;
    for (const dir of await this.#storage.list('token/')) {
      for (const hash of await this.#storage.list(`token/${dir}`)) {
        const key = `token/${dir}${hash}`;
        const leaseId = await getJson<unknown>(this.#storage, key);
        if (typeof leaseId === 'string' && isLive(leaseId)) continue;
        await this.#storage.delete(key);
        removed++;
      }
    }
    return removed;
  }

  async #read(key: string): Promise<LeaseEntry | undefined> {
    try {
      const value = await getJson<unknown>(this.#storage, key);
      if (isLeaseEntry(value)) return normalise(value);
      this.#logger.error('skipping malformed lease entry', { key });
    } catch (err) {
      this.#logger.error('skipping unreadable lease entry', { key, err });
    }
    return undefined;
  }
}

/** Fills fields an older entry may lack, so the rest of the code can rely on the full shape. */
function normalise(e: LeaseEntry): LeaseEntry {
  return {
    ...e,
    namespace: e.namespace ?? '',
    max_expire_time_ms: e.max_expire_time_ms ?? 0,
    last_renewal_ms: e.last_renewal_ms ?? 0,
    renewable: e.renewable === true,
    token_accessor: e.token_accessor ?? '',
    secret: e.secret ?? null,
    revoke_attempts: e.revoke_attempts ?? 0,
    revoke_error: e.revoke_error ?? '',
    irrevocable: e.irrevocable === true,
  };
}
