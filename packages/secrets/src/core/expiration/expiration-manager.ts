import { type Clock, type Logger, type Random, randomBase62 } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError, LogicalError, SealedError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { type LeaseEntry, type LeaseKind, revokeErrorText } from './lease.js';
import { LeaseSchedule, type TrackedLease } from './lease-schedule.js';
import { LeaseStore } from './lease-store.js';
import { capTtl, MAX_REVOKE_ATTEMPTS, previousTtlSeconds, renewRefusal, revokeRetryDelayMs } from './renewal.js';

/** What the core does when a lease ends or is renewed: route to the token store or the backend. */
export interface LeaseRevoker {
  /**
   * Revokes what the lease grants (a token, a database user). Must be idempotent: after a
   * crash between revoking and deleting the lease, it runs again on restore. A throw counts
   * as a failed attempt (retried with backoff when automatic, reported when requested).
   */
  revoke(lease: Readonly<LeaseEntry>): Promise<void>;
  /** Asks the backend to extend a secret; the answer is capped by the lease's max TTL. Absent: the increment is granted as is. */
  renew?(lease: Readonly<LeaseEntry>, incrementSeconds: number): Promise<{ ttlSeconds: number }>;
}

export interface ExpirationManagerOptions {
  /** Where leases persist, behind the barrier: the core passes the view `sys/expire/`. */
  storage: Storage;
  clock: Clock;
  random: Random;
  logger: Logger;
  revoker: LeaseRevoker;
  /** Automatic revocations running at once (default 64). */
  maxConcurrentRevocations?: number;
}

export interface RegisterLeaseOptions {
  /** The request path that produced the lease; trailing `/` are dropped. */
  path: string;
  /** 0 = never expires. */
  ttlSeconds: number;
  /** Hard cap from issue time on expiry and renewals; 0 or absent = none. */
  maxTtlSeconds?: number;
  renewable: boolean;
  kind: LeaseKind;
  /** The token the lease belongs to (for a token lease, that token's own accessor). */
  tokenAccessor?: string;
  /** Opaque data the revoker gets back. */
  secret?: Record<string, unknown> | null;
  namespace?: string;
  /** Last segment of the id instead of 24 random base62 characters (token leases: the token's hash). */
  idSuffix?: string;
}

export interface RenewResult {
  ttlSeconds: number;
  /** What the backend (or the increment) asked for, before the max TTL cap. */
  requestedTtlSeconds: number;
  /** The TTL was cut to `maxValidSeconds` (callers add the established warning). */
  capped: boolean;
  maxValidSeconds: number;
  renewable: boolean;
}

export interface RevokeOptions {
  /** `false`: mark for revocation and return; the timer revokes (with retries). Default `true`. */
  sync?: boolean;
  /** Ignore revoker errors and delete the lease anyway (revoke-force). */
  force?: boolean;
}

const DEFAULT_CONCURRENCY = 64;

/**
 * Tracks every lease, revokes each when it expires, and persists all of it so a restart
 * loses no pending revocation. One clock timer serves all leases (see `LeaseSchedule`).
 * Operations on one lease are serialised; a revoker may call `revokeByToken` for the token
 * whose lease it is revoking without deadlocking.
 */
export class ExpirationManager {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #logger: Logger;
  readonly #revoker: LeaseRevoker;
  readonly #store: LeaseStore;
  readonly #schedule: LeaseSchedule;
  readonly #locks = new KeyedMutex();
  readonly #tasks = new Set<Promise<void>>();
  readonly #maxConcurrent: number;
  #running = false;
  #irrevocable = 0;

  constructor(options: ExpirationManagerOptions) {
    this.#clock = options.clock;
    this.#random = options.random;
    this.#logger = options.logger;
    this.#revoker = options.revoker;
    this.#maxConcurrent = options.maxConcurrentRevocations ?? DEFAULT_CONCURRENCY;
    this.#store = new LeaseStore(options.storage, options.logger);
    this.#schedule = new LeaseSchedule(options.clock, () => this.#pump());
  }

  /**
   * On unseal: loads every persisted lease and arms the timer. Leases that expired while the
   * server was down start revoking at once, in the background (`settled()` waits for them).
   */
  async restore(): Promise<void> {
    await this.stop();
    const entries = await this.#store.loadAll();
    const nowMs = this.#clock.now();
    let expired = 0;
    for (const entry of entries) {
      if (entry.irrevocable) this.#irrevocable++;
      const due = dueOf(entry);
      if (due !== undefined && due <= nowMs) expired++;
      this.#schedule.add(entry, due);
    }
    this.#running = true;
    this.#logger.info('leases restored', { leases: entries.length, expired, irrevocable: this.#irrevocable });
    this.#pump();
  }

  /** On seal: cancels the timer, waits for revocations under way, and forgets every lease in memory. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#schedule.disarm();
    await this.settled();
    this.#schedule.clear();
    this.#irrevocable = 0;
  }

  /** Resolves once no automatic revocation is running (tests call it after moving a fake clock). */
  async settled(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /** Creates a lease, persisted before this resolves, and returns its id `<path>/<suffix>`. */
  async register(options: RegisterLeaseOptions): Promise<string> {
    this.#requireRunning();
    const path = options.path.replace(/\/+$/, '');
    if (path === '') throw new InvalidRequestError('a lease needs a path');
    if (!Number.isInteger(options.ttlSeconds) || options.ttlSeconds < 0) {
      throw new InvalidRequestError(`invalid lease TTL ${options.ttlSeconds}`);
    }
    const leaseId = `${path}/${options.idSuffix ?? randomBase62(this.#random, 24)}`;
    if (this.#schedule.get(leaseId)) throw new InvalidRequestError(`lease "${leaseId}" already exists`);
    const entry = newEntry(leaseId, path, options, this.#clock.now());
    await this.#store.create(entry);
    if (!this.#running) return leaseId;
    const tracked = this.#schedule.add(entry, undefined);
    if (entry.expire_time_ms !== 0) this.#queue(tracked, entry.expire_time_ms);
    return leaseId;
  }

  /** The manager's clock, so callers compute TTLs on the same time base as expiry. */
  now(): number {
    return this.#clock.now();
  }

  /** A copy of the lease, or `undefined`. */
  lookup(leaseId: string): LeaseEntry | undefined {
    this.#requireRunning();
    const tracked = this.#schedule.get(leaseId);
    return tracked ? { ...tracked.entry } : undefined;
  }

  /** Keys one level below `prefix`, as a storage list shows them: next segments (ending in `/`) and lease suffixes. */
  list(prefix: string): string[] {
    this.#requireRunning();
    const base = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    const keys = new Set<string>();
    for (const id of this.#schedule.ids()) {
      if (!id.startsWith(base)) continue;
      const rest = id.slice(base.length);
      const slash = rest.indexOf('/');
      keys.add(slash === -1 ? rest : rest.slice(0, slash + 1));
    }
    return [...keys].sort();
  }

  /** Leases tracked, and how many of them are irrevocable. */
  count(): { total: number; irrevocable: number } {
    this.#requireRunning();
    return { total: this.#schedule.size, irrevocable: this.#irrevocable };
  }

  /**
   * Renews a secret lease by `incrementSeconds` (0: its previous TTL), through the revoker's
   * `renew` when it has one, capped by the lease's max TTL. Token leases are refused: the
   * token store renews them through `renewToken`.
   */
  async renew(leaseId: string, incrementSeconds: number): Promise<RenewResult> {
    this.#requireRunning();
    return this.#locks.run(leaseId, async () => {
      const tracked = this.#schedule.get(leaseId);
      if (!tracked) throw new InvalidRequestError('lease not found');
      const entry = tracked.entry;
      if (entry.kind === 'token') throw new InvalidRequestError('tokens cannot be renewed through this endpoint');
      const refusal = renewRefusal(entry, this.#clock.now());
      if (refusal) throw new InvalidRequestError(refusal);
      const requested = await this.#requestedTtl(entry, incrementSeconds);
      const nowMs = this.#clock.now();
      const { ttlSeconds, capped, maxValidSeconds } = capTtl(entry, requested, nowMs);
      entry.expire_time_ms = nowMs + ttlSeconds * 1000;
      entry.last_renewal_ms = nowMs;
      await this.#store.update(entry);
      this.#queue(tracked, entry.expire_time_ms);
      return { ttlSeconds, requestedTtlSeconds: requested, capped, maxValidSeconds, renewable: entry.renewable };
    });
  }

  /**
   * For the token store, which applies its own TTL rules: moves a token lease's expiry to
   * `ttlSeconds` from now (0 = never) and records the renewal.
   */
  async renewToken(leaseId: string, ttlSeconds: number): Promise<void> {
    this.#requireRunning();
    await this.#locks.run(leaseId, async () => {
      const tracked = this.#schedule.get(leaseId);
      if (!tracked || tracked.entry.kind !== 'token') throw new InvalidRequestError('lease not found');
      const nowMs = this.#clock.now();
      tracked.entry.expire_time_ms = ttlSeconds > 0 ? nowMs + ttlSeconds * 1000 : 0;
      tracked.entry.last_renewal_ms = nowMs;
      await this.#store.update(tracked.entry);
      if (tracked.entry.expire_time_ms === 0) this.#schedule.unqueue(tracked);
      else this.#queue(tracked, tracked.entry.expire_time_ms);
    });
  }

  /**
   * Revokes one lease now (the revoker's error is thrown unless `force`), or with
   * `sync: false` marks it expired for the timer to revoke. An unknown lease is not an error.
   */
  async revoke(leaseId: string, options: RevokeOptions = {}): Promise<void> {
    this.#requireRunning();
    if (options.sync === false) {
      await this.#revokeLater(leaseId);
      return;
    }
    await this.#locks.run(leaseId, () => this.#revokeNow(leaseId, options.force === true));
  }

  /**
   * Revokes every lease under `prefix` (a path or a mount point), one by one, stopping at the
   * first failure unless `force`. A prefix that is itself a lease id revokes that lease.
   */
  async revokePrefix(prefix: string, options: RevokeOptions = {}): Promise<void> {
    this.#requireRunning();
    if (!prefix.endsWith('/') && this.#schedule.get(prefix)) {
      await this.revoke(prefix, options);
      return;
    }
    const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
    const ids = [...this.#schedule.ids()].filter((id) => id.startsWith(base)).sort();
    for (const [index, leaseId] of ids.entries()) {
      try {
        await this.revoke(leaseId, options);
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        throw new InvalidRequestError(`failed to revoke "${leaseId}" (${index + 1} / ${ids.length}): ${detail}`);
      }
    }
  }

  /**
   * A token is being revoked: revokes every secret lease it owns (a failure goes to the
   * retry schedule instead of failing the token's revocation) and drops the token's own
   * lease without calling the revoker, since the caller is already revoking the token.
   */
  async revokeByToken(accessor: string): Promise<void> {
    this.#requireRunning();
    if (accessor === '') return;
    for (const leaseId of await this.#store.leaseIdsOfToken(accessor)) {
      const tracked = this.#schedule.get(leaseId);
      if (!tracked) {
        await this.#store.removeIndexEntry(accessor, leaseId);
      } else if (tracked.entry.kind === 'token') {
        // Revoking this very lease is what called us: it is deleted when the revoker returns.
        if (tracked.revoking) continue;
        await this.#locks.run(leaseId, async () => {
          const current = this.#schedule.get(leaseId);
          if (current) await this.#forget(current);
        });
      } else {
        await this.#locks.run(leaseId, async () => {
          const current = this.#schedule.get(leaseId);
          if (current) await this.#attempt(current);
        });
      }
    }
  }

  #requireRunning(): void {
    if (!this.#running) throw new SealedError();
  }

  async #requestedTtl(entry: LeaseEntry, incrementSeconds: number): Promise<number> {
    const fallback = incrementSeconds > 0 ? incrementSeconds : previousTtlSeconds(entry);
    if (!this.#revoker.renew) return fallback;
    try {
      const { ttlSeconds } = await this.#revoker.renew({ ...entry }, incrementSeconds);
      return ttlSeconds > 0 ? ttlSeconds : fallback;
    } catch (err) {
      throw calloutError('renew', err);
    }
  }

  async #revokeNow(leaseId: string, force: boolean): Promise<void> {
    const tracked = this.#schedule.get(leaseId);
    if (!tracked) return;
    try {
      await this.#callRevoker(tracked);
    } catch (err) {
      if (!force) throw calloutError('revoke', err);
      this.#logger.warn('revoke-force: deleting lease despite revocation error', { lease_id: leaseId, err });
    }
    await this.#forget(tracked);
  }

  async #revokeLater(leaseId: string): Promise<void> {
    await this.#locks.run(leaseId, async () => {
      const tracked = this.#schedule.get(leaseId);
      if (!tracked) return;
      const entry = tracked.entry;
      // An explicit request starts the retry cycle afresh, even for an irrevocable lease.
      if (entry.irrevocable) this.#irrevocable--;
      entry.irrevocable = false;
      entry.revoke_attempts = 0;
      entry.expire_time_ms = this.#clock.now();
      await this.#store.update(entry);
      this.#queue(tracked, entry.expire_time_ms);
    });
  }

  /** Queues a lease and, when it is now the earliest, re-arms the timer (or starts it at once). */
  #queue(tracked: TrackedLease, dueMs: number): void {
    this.#schedule.queue(tracked, dueMs);
    if (dueMs < this.#schedule.armedDueMs) this.#pump();
  }

  /** Starts revoking due leases up to the concurrency limit, then arms the timer for the next. */
  #pump(): void {
    if (!this.#running) return;
    const nowMs = this.#clock.now();
    while (this.#tasks.size < this.#maxConcurrent) {
      const tracked = this.#schedule.takeDue(nowMs);
      if (!tracked) break;
      const task: Promise<void> = this.#expire(tracked).finally(() => {
        this.#tasks.delete(task);
        this.#pump();
      });
      this.#tasks.add(task);
    }
    this.#schedule.arm();
  }

  /** Timer path: revokes a due lease unless it was revoked, renewed or re-queued meanwhile. Never throws. */
  async #expire(tracked: TrackedLease): Promise<void> {
    const leaseId = tracked.entry.lease_id;
    try {
      await this.#locks.run(leaseId, async () => {
        if (!this.#running || this.#schedule.get(leaseId) !== tracked || tracked.heapIndex !== -1) return;
        await this.#attempt(tracked);
      });
    } catch (err) {
      this.#logger.error('lease expiry failed', { lease_id: leaseId, err });
    }
  }

  /** One automatic revocation attempt: success deletes the lease, failure schedules a retry. */
  async #attempt(tracked: TrackedLease): Promise<void> {
    try {
      await this.#callRevoker(tracked);
    } catch (err) {
      await this.#recordFailure(tracked, err);
      return;
    }
    await this.#forget(tracked);
  }

  async #callRevoker(tracked: TrackedLease): Promise<void> {
    tracked.revoking = true;
    try {
      await this.#revoker.revoke({ ...tracked.entry });
    } finally {
      tracked.revoking = false;
    }
  }

  async #recordFailure(tracked: TrackedLease, err: unknown): Promise<void> {
    const entry = tracked.entry;
    entry.revoke_attempts++;
    entry.revoke_error = revokeErrorText(err);
    const fields = { lease_id: entry.lease_id, attempts: entry.revoke_attempts, error: entry.revoke_error };
    if (entry.revoke_attempts >= MAX_REVOKE_ATTEMPTS) {
      if (!entry.irrevocable) this.#irrevocable++;
      entry.irrevocable = true;
      this.#schedule.unqueue(tracked);
      this.#logger.error('lease is irrevocable after repeated revocation failures', fields);
    } else {
      const delayMs = revokeRetryDelayMs(entry.revoke_attempts, this.#random);
      this.#queue(tracked, this.#clock.now() + delayMs);
      this.#logger.warn('lease revocation failed; retrying', { ...fields, retry_in_ms: delayMs });
    }
    await this.#store.update(entry);
  }

  /** Deletes a lease from storage, then from memory (a storage error leaves it tracked). */
  async #forget(tracked: TrackedLease): Promise<void> {
    await this.#store.remove(tracked.entry);
    if (tracked.entry.irrevocable && this.#schedule.get(tracked.entry.lease_id) === tracked) this.#irrevocable--;
    this.#schedule.delete(tracked);
  }
}

function newEntry(leaseId: string, path: string, o: RegisterLeaseOptions, nowMs: number): LeaseEntry {
  const maxExpire = o.maxTtlSeconds ? nowMs + o.maxTtlSeconds * 1000 : 0;
  let expire = o.ttlSeconds > 0 ? nowMs + o.ttlSeconds * 1000 : 0;
  if (maxExpire !== 0 && (expire === 0 || expire > maxExpire)) expire = maxExpire;
  return {
    lease_id: leaseId,
    path,
    namespace: o.namespace ?? '',
    issue_time_ms: nowMs,
    expire_time_ms: expire,
    max_expire_time_ms: maxExpire,
    last_renewal_ms: 0,
    renewable: o.renewable,
    kind: o.kind,
    token_accessor: o.tokenAccessor ?? '',
    secret: o.secret ?? null,
    revoke_attempts: 0,
    revoke_error: '',
    irrevocable: false,
  };
}

/** When a restored lease next needs attention; `undefined` for one that never expires or is irrevocable. */
function dueOf(entry: LeaseEntry): number | undefined {
  return entry.irrevocable || entry.expire_time_ms === 0 ? undefined : entry.expire_time_ms;
}

/** A revoker or renewer failure as the caller sees it: a typed error passes through, anything else is a 400. */
function calloutError(action: 'revoke' | 'renew', err: unknown): LogicalError {
  if (err instanceof LogicalError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new InvalidRequestError(`failed to ${action} entry: ${detail}`);
}
