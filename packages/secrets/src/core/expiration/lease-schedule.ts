import type { Cancel, Clock } from '@ward/base';
import { DueHeap, type HeapItem } from './due-heap.js';
import type { LeaseEntry } from './lease.js';

/** A lease in memory: its entry, and when it next needs attention (expiry or a revocation retry). */
export interface TrackedLease extends HeapItem {
  entry: LeaseEntry;
  /** The revoker is running for this lease (a token store calling back must not wait for it). */
  revoking: boolean;
}

/**
 * Every lease in memory, with the ones that expire ordered in a min-heap and ONE clock
 * timer armed for the earliest. Adding or moving a lease is O(log n); memory is linear.
 */
export class LeaseSchedule {
  readonly #clock: Clock;
  readonly #onTimer: () => void;
  readonly #leases = new Map<string, TrackedLease>();
  readonly #heap = new DueHeap<TrackedLease>();
  #cancel: Cancel | undefined;
  /** When the armed timer fires; `Infinity` when none is armed. */
  #armedDueMs = Number.POSITIVE_INFINITY;

  constructor(clock: Clock, onTimer: () => void) {
    this.#clock = clock;
    this.#onTimer = onTimer;
  }

  get size(): number {
    return this.#leases.size;
  }

  get armedDueMs(): number {
    return this.#armedDueMs;
  }

  get(leaseId: string): TrackedLease | undefined {
    return this.#leases.get(leaseId);
  }

  ids(): IterableIterator<string> {
    return this.#leases.keys();
  }

  /** Tracks `entry`, queued at `dueMs` (`undefined`: not queued, e.g. never expires or irrevocable). */
  add(entry: LeaseEntry, dueMs: number | undefined): TrackedLease {
    const tracked: TrackedLease = { entry, dueMs: dueMs ?? 0, heapIndex: -1, revoking: false };
    this.#leases.set(entry.lease_id, tracked);
    if (dueMs !== undefined) this.#heap.push(tracked);
    return tracked;
  }

  /** Queues (or moves) `tracked` to `dueMs`. */
  queue(tracked: TrackedLease, dueMs: number): void {
    this.#heap.set(tracked, dueMs);
  }

  /** Takes `tracked` out of the queue; it stays tracked. */
  unqueue(tracked: TrackedLease): void {
    this.#heap.remove(tracked);
  }

  /** Forgets `tracked` entirely, if it is still the tracked lease of its id. */
  delete(tracked: TrackedLease): void {
    this.#heap.remove(tracked);
    if (this.#leases.get(tracked.entry.lease_id) === tracked) this.#leases.delete(tracked.entry.lease_id);
  }

  /** The earliest queued lease if it is due at `nowMs`, taken out of the queue. */
  takeDue(nowMs: number): TrackedLease | undefined {
    const first = this.#heap.peek();
    if (!first || first.dueMs > nowMs) return undefined;
    this.#heap.remove(first);
    return first;
  }

  /**
   * Cancels the timer and arms one for the earliest queued lease, if that lies in the future.
   * A lease already due gets no timer: whoever is revoking picks it up when a slot frees.
   */
  arm(): void {
    const first = this.#heap.peek();
    const nowMs = this.#clock.now();
    const delayMs = first ? first.dueMs - nowMs : 0;
    // Already armed for that instant: keep the timer (most pumps change nothing).
    if (this.#cancel && delayMs > 0 && nowMs + delayMs === this.#armedDueMs) return;
    this.disarm();
    if (delayMs <= 0) return;
    this.#armedDueMs = nowMs + delayMs;
    this.#cancel = this.#clock.setTimeout(() => {
      this.#cancel = undefined;
      this.#armedDueMs = Number.POSITIVE_INFINITY;
      this.#onTimer();
    }, delayMs);
  }

  disarm(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#armedDueMs = Number.POSITIVE_INFINITY;
  }

  /** Cancels the timer and forgets every lease. */
  clear(): void {
    this.disarm();
    this.#heap.clear();
    this.#leases.clear();
  }
}
