import { type Clock, type Logger, randomBase62 } from '@ward/base';
import { KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError, LogicalError, SealedError } from '../../logical/errors.js';
import { type LeaseEntry, newEntry } from './lease.js';
import { LeaseStore } from './lease-store.js';
import { capTtl, previousTtlSeconds, renewRefusal } from './renewal.js';
import { RevocationRunner } from './revocation-runner.js';
import type {
  ExpirationManagerOptions,
  LeaseRevoker,
  RegisterLeaseOptions,
  RenewResult,
  RevokeOptions,
} from './types.js';

const DEFAULT_CONCURRENCY = 64;

/**
 * Tracks every lease, revokes each when it expires, and persists all of it so a restart
 * loses no pending revocation. One clock timer serves all leases (see `LeaseSchedule`).
 * Operations on one lease are serialised; a revoker may call `revokeByToken` for the token
 * whose lease it is revoking without deadlocking. Every method but `restore` refuses with
 * `SealedError` until `restore` ran (and after `stop`).
 */
export class ExpirationManager {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #options: ExpirationManagerOptions;
  readonly #revoker: LeaseRevoker;
  readonly #store: LeaseStore;
  readonly #locks = new KeyedMutex();
  readonly #runner: RevocationRunner;

  constructor(options: ExpirationManagerOptions) {
    this.#options = options;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#revoker = options.revoker;
    this.#store = new LeaseStore(options.storage, options.logger, options.accessorDigest);
    this.#runner = new RevocationRunner({
      store: this.#store,
      revoker: options.revoker,
      locks: this.#locks,
      clock: options.clock,
      random: options.random,
      logger: options.logger,
      maxConcurrent: options.maxConcurrentRevocations ?? DEFAULT_CONCURRENCY,
    });
  }

  /**
   * On unseal: loads every persisted lease and arms the timer. Leases that expired while the
   * server was down start revoking at once, in the background (`settled()` waits for them).
   */
  async restore(): Promise<void> {
    await this.stop();
    const entries = await this.#store.loadAll();
    await this.#store.migrateIndex(entries);
    const expired = this.#runner.start(entries);
    const irrevocable = this.#runner.irrevocableCount;
    this.#logger.info('leases restored', { leases: entries.length, expired, irrevocable });
  }

  /** On seal: cancels the timer, waits for revocations under way, and forgets every lease in memory. */
  async stop(): Promise<void> {
    await this.#runner.stop();
  }

  /** Resolves once no automatic revocation is running (tests call it after moving a fake clock). */
  async settled(): Promise<void> {
    await this.#runner.settled();
  }

  /** The manager's clock, so callers compute TTLs on the same time base as expiry. */
  now(): number {
    return this.#clock.now();
  }

  /** Creates a lease, persisted before this resolves, and returns its id `<path>/<suffix>`. */
  async register(options: RegisterLeaseOptions): Promise<string> {
    this.#requireRunning();
    const path = options.path.replace(/\/+$/, '');
    if (path === '') throw new InvalidRequestError('a lease needs a path');
    if (!Number.isInteger(options.ttlSeconds) || options.ttlSeconds < 0) {
      throw new InvalidRequestError(`invalid lease TTL ${options.ttlSeconds}`);
    }
    const leaseId = `${path}/${options.idSuffix ?? randomBase62(this.#options.random, 24)}`;
    const schedule = this.#runner.schedule;
    if (schedule.get(leaseId)) throw new InvalidRequestError(`lease "${leaseId}" already exists`);
    const entry = newEntry(leaseId, path, options, this.#clock.now());
    await this.#store.create(entry);
    // Sealed while writing: the lease is on disk and the next restore picks it up.
    if (!this.#runner.isRunning) return leaseId;
    const tracked = schedule.add(entry, undefined);
    if (entry.expire_time_ms !== 0) this.#runner.queue(tracked, entry.expire_time_ms);
    return leaseId;
  }

  /** A copy of the lease, or `undefined`. */
  lookup(leaseId: string): LeaseEntry | undefined {
    this.#requireRunning();
    const tracked = this.#runner.schedule.get(leaseId);
    return tracked ? { ...tracked.entry } : undefined;
  }

  /** Keys one level below `prefix`, as a storage list shows them: next segments (ending in `/`) and lease suffixes. */
  list(prefix: string): string[] {
    this.#requireRunning();
    const base = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    const keys = new Set<string>();
    for (const id of this.#runner.schedule.ids()) {
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
    return { total: this.#runner.schedule.size, irrevocable: this.#runner.irrevocableCount };
  }

  /**
   * Renews a secret lease by `incrementSeconds` (0: its previous TTL), through the revoker's
   * `renew` when it has one, capped by the lease's max TTL. Token leases are refused: the
   * token store renews them through `renewToken`.
   */
  async renew(leaseId: string, incrementSeconds: number): Promise<RenewResult> {
    this.#requireRunning();
    return this.#locks.run(leaseId, async () => {
      const tracked = this.#runner.schedule.get(leaseId);
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
      this.#runner.queue(tracked, entry.expire_time_ms);
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
      const tracked = this.#runner.schedule.get(leaseId);
      if (!tracked || tracked.entry.kind !== 'token') throw new InvalidRequestError('lease not found');
      const nowMs = this.#clock.now();
      tracked.entry.expire_time_ms = ttlSeconds > 0 ? nowMs + ttlSeconds * 1000 : 0;
      tracked.entry.last_renewal_ms = nowMs;
      await this.#store.update(tracked.entry);
      if (tracked.entry.expire_time_ms === 0) this.#runner.schedule.unqueue(tracked);
      else this.#runner.queue(tracked, tracked.entry.expire_time_ms);
    });
  }

  /**
   * Revokes one lease now (the revoker's error is thrown unless `force`), or with
   * `sync: false` marks it expired for the timer to revoke. An unknown lease is not an error.
   */
  async revoke(leaseId: string, options: RevokeOptions = {}): Promise<void> {
    this.#requireRunning();
    const force = options.force === true;
    await this.#locks.run(leaseId, () =>
      options.sync === false ? this.#revokeLater(leaseId) : this.#revokeNow(leaseId, force),
    );
  }

  /**
   * Revokes every lease under `prefix` (a path or a mount point), one by one, stopping at the
   * first failure unless `force`. A prefix that is itself a lease id revokes that lease.
   */
  async revokePrefix(prefix: string, options: RevokeOptions = {}): Promise<void> {
    this.#requireRunning();
    if (!prefix.endsWith('/') && this.#runner.schedule.get(prefix)) {
      await this.revoke(prefix, options);
      return;
    }
    const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
    const ids = [...this.#runner.schedule.ids()].filter((id) => id.startsWith(base)).sort();
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
    const schedule = this.#runner.schedule;
    for (const leaseId of await this.#store.leaseIdsOfToken(accessor)) {
      const tracked = schedule.get(leaseId);
      if (!tracked) {
        await this.#store.removeIndexEntry(accessor, leaseId);
        continue;
      }
      // Revoking this very token lease is what called us: it is deleted when the revoker returns.
      if (tracked.entry.kind === 'token' && tracked.revoking) continue;
      await this.#locks.run(leaseId, async () => {
        const current = schedule.get(leaseId);
        if (!current) return;
        await (current.entry.kind === 'token' ? this.#runner.forget(current) : this.#runner.attempt(current));
      });
    }
  }

  /** Removes by-token index entries that point at no lease; returns how many. */
  async tidy(): Promise<number> {
    this.#requireRunning();
    const removed = await this.#store.tidyIndex((leaseId) => this.#runner.schedule.get(leaseId) !== undefined);
    this.#logger.info('lease index tidied', { removed });
    return removed;
  }

  #requireRunning(): void {
    if (!this.#runner.isRunning) throw new SealedError();
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
    const tracked = this.#runner.schedule.get(leaseId);
    if (!tracked) return;
    try {
      await this.#runner.callRevoker(tracked);
    } catch (err) {
      if (!force) throw calloutError('revoke', err);
      this.#logger.warn('revoke-force: deleting lease despite revocation error', { lease_id: leaseId, err });
    }
    await this.#runner.forget(tracked);
  }

  async #revokeLater(leaseId: string): Promise<void> {
    const tracked = this.#runner.schedule.get(leaseId);
    if (!tracked) return;
    this.#runner.resetRetries(tracked.entry);
    tracked.entry.expire_time_ms = this.#clock.now();
    await this.#store.update(tracked.entry);
    this.#runner.queue(tracked, tracked.entry.expire_time_ms);
  }
}

/** A revoker or renewer failure as the caller sees it: a typed error passes through, anything else is a 400. */
function calloutError(action: 'revoke' | 'renew', err: unknown): LogicalError {
  if (err instanceof LogicalError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new InvalidRequestError(`failed to ${action} entry: ${detail}`);
}
