import type { Clock, Logger, Random } from '@ward/base';
import type { KeyedMutex } from '../../framework/index.js';
import { dueOf, type LeaseEntry, revokeErrorText } from './lease.js';
import { LeaseSchedule, type TrackedLease } from './lease-schedule.js';
import type { LeaseStore } from './lease-store.js';
import { MAX_REVOKE_ATTEMPTS, revokeRetryDelayMs } from './renewal.js';
import type { LeaseRevoker } from './types.js';

export interface RevocationRunnerDeps {
  store: LeaseStore;
  revoker: LeaseRevoker;
  /** The manager's per-lease locks: a revocation never overlaps a renewal of the same lease. */
  locks: KeyedMutex;
  clock: Clock;
  random: Random;
  logger: Logger;
  maxConcurrent: number;
}

/**
 * The automatic side of expiration: takes due leases off the schedule (a bounded number at
 * once, so one slow backend cannot stall the rest), revokes them, deletes them on success,
 * re-queues them with backoff on failure and marks them irrevocable after the last attempt.
 */
export class RevocationRunner {
  readonly schedule: LeaseSchedule;
  readonly #d: RevocationRunnerDeps;
  readonly #tasks = new Set<Promise<void>>();
  #running = false;
  #irrevocable = 0;

  constructor(deps: RevocationRunnerDeps) {
    this.#d = deps;
    this.schedule = new LeaseSchedule(deps.clock, () => this.pump());
  }

  get isRunning(): boolean {
    return this.#running;
  }

  get irrevocableCount(): number {
    return this.#irrevocable;
  }

  /** Tracks restored leases and starts revoking the due ones; returns how many were already due. */
  start(entries: LeaseEntry[]): number {
    const nowMs = this.#d.clock.now();
    let due = 0;
    for (const entry of entries) {
      if (entry.irrevocable) this.#irrevocable++;
      const dueMs = dueOf(entry);
      if (dueMs !== undefined && dueMs <= nowMs) due++;
      this.schedule.add(entry, dueMs);
    }
    this.#running = true;
    this.pump();
    return due;
  }

  /** Cancels the timer, waits for revocations under way, and forgets every lease. */
  async stop(): Promise<void> {
    this.#running = false;
    this.schedule.disarm();
    await this.settled();
    this.schedule.clear();
    this.#irrevocable = 0;
  }

  async settled(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /** Queues a lease and, when it is now the earliest, re-arms the timer (or starts it at once). */
  queue(tracked: TrackedLease, dueMs: number): void {
    this.schedule.queue(tracked, dueMs);
    if (dueMs < this.schedule.armedDueMs) this.pump();
  }

  /** An explicit revocation request starts the retry cycle afresh, even for an irrevocable lease. */
  resetRetries(entry: LeaseEntry): void {
    if (entry.irrevocable) this.#irrevocable--;
    entry.irrevocable = false;
    entry.revoke_attempts = 0;
  }

  /** Starts revoking due leases up to the concurrency limit, then arms the timer for the next. */
  pump(): void {
    if (!this.#running) return;
    const nowMs = this.#d.clock.now();
    while (this.#tasks.size < this.#d.maxConcurrent) {
      const tracked = this.schedule.takeDue(nowMs);
      if (!tracked) break;
      const task: Promise<void> = this.#expire(tracked).finally(() => {
        this.#tasks.delete(task);
        this.pump();
      });
      this.#tasks.add(task);
    }
    this.schedule.arm();
  }

  /** One automatic attempt (expiry, or a token's revocation): success deletes, failure schedules a retry. */
  async attempt(tracked: TrackedLease): Promise<void> {
    try {
      await this.callRevoker(tracked);
    } catch (err) {
      await this.#recordFailure(tracked, err);
      return;
    }
    await this.forget(tracked);
  }

  /** Calls the revoker with a copy of the entry; `revoking` is set meanwhile (see `revokeByToken`). */
  async callRevoker(tracked: TrackedLease): Promise<void> {
    tracked.revoking = true;
    try {
      await this.#d.revoker.revoke({ ...tracked.entry });
    } finally {
      tracked.revoking = false;
    }
  }

  /** Deletes a lease from storage, then from memory (a storage error leaves it tracked). */
  async forget(tracked: TrackedLease): Promise<void> {
    await this.#d.store.remove(tracked.entry);
    if (tracked.entry.irrevocable && this.schedule.get(tracked.entry.lease_id) === tracked) this.#irrevocable--;
    this.schedule.delete(tracked);
  }

  /** Timer path: revokes a due lease unless it was revoked, renewed or re-queued meanwhile. Never throws. */
  async #expire(tracked: TrackedLease): Promise<void> {
    const leaseId = tracked.entry.lease_id;
    try {
      await this.#d.locks.run(leaseId, async () => {
        if (!this.#running || this.schedule.get(leaseId) !== tracked || tracked.heapIndex !== -1) return;
        await this.attempt(tracked);
      });
    } catch (err) {
      this.#d.logger.error('lease expiry failed', { lease_id: leaseId, err });
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
      this.schedule.unqueue(tracked);
      this.#d.logger.error('lease is irrevocable after repeated revocation failures', fields);
    } else {
      const delayMs = revokeRetryDelayMs(entry.revoke_attempts, this.#d.random);
      this.queue(tracked, this.#d.clock.now() + delayMs);
      this.#d.logger.warn('lease revocation failed; retrying', { ...fields, retry_in_ms: delayMs });
    }
    await this.#d.store.update(entry);
  }
}
