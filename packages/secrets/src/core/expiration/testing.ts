import { type Cancel, type Clock, FakeClock, SeededRandom, silentLogger } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import { InmemStorage } from '../../storage/index.js';
import { accessorDigest } from '../tokens/salted-digest.js';
import { ExpirationManager } from './expiration-manager.js';
import type { LeaseEntry } from './lease.js';
import type { LeaseRevoker } from './types.js';

/**
 * A revoker that records what it revoked (with the clock time) and fails on demand:
 * `failNext(id, n)` makes the next `n` attempts on a lease throw.
 */
export class RecordingRevoker implements LeaseRevoker {
  readonly revoked: Array<{ id: string; atMs: number }> = [];
  readonly attempts = new Map<string, number>();
  readonly #failures = new Map<string, number>();
  readonly #clock: Clock;
  /** Called on each successful revocation, before it is recorded (a token store calling back). */
  onRevoke: ((lease: Readonly<LeaseEntry>) => Promise<void>) | undefined;
  /** TTL a backend grants on renewal; `undefined`: no `renew` callback behaviour (the increment). */
  renewTtlSeconds: number | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  failNext(leaseId: string, times: number): void {
    this.#failures.set(leaseId, times);
  }

  get revokedIds(): string[] {
    return this.revoked.map((r) => r.id);
  }

  async revoke(lease: Readonly<LeaseEntry>): Promise<void> {
    this.attempts.set(lease.lease_id, (this.attempts.get(lease.lease_id) ?? 0) + 1);
    const failures = this.#failures.get(lease.lease_id) ?? 0;
    if (failures > 0) {
      this.#failures.set(lease.lease_id, failures - 1);
      throw new Error(`backend unavailable: ${'x'.repeat(300)}`);
    }
    await this.onRevoke?.(lease);
    this.revoked.push({ id: lease.lease_id, atMs: this.#clock.now() });
  }

  async renew(_lease: Readonly<LeaseEntry>, incrementSeconds: number): Promise<{ ttlSeconds: number }> {
    return { ttlSeconds: this.renewTtlSeconds ?? incrementSeconds };
  }
}

/**
 * A `FakeClock` that fails the test if a second timer is ever armed while one is pending:
 * the expiration manager promises one timer for all its leases.
 */
export class SingleTimerClock implements Clock {
  readonly inner: FakeClock;
  maxPending = 0;

  constructor(start: string | number = '2024-01-01T00:00:00Z') {
    this.inner = new FakeClock(start);
  }

  now(): number {
    return this.inner.now();
  }

  nowPrecise(): number {
    return this.inner.nowPrecise();
  }

  setTimeout(fn: () => void, ms: number): Cancel {
    const cancel = this.inner.setTimeout(fn, ms);
    this.maxPending = Math.max(this.maxPending, this.inner.pendingTimers);
    return cancel;
  }

  advance(ms: number): void {
    this.inner.advance(ms);
  }

  get pendingTimers(): number {
    return this.inner.pendingTimers;
  }
}

const TEST_SALT = new TextEncoder().encode('expiration test salt');

/** The accessor digest test managers use (the token store's function, under a fixed salt). */
export function testAccessorDigest(accessor: string): string {
  return accessorDigest(TEST_SALT, accessor);
}

export interface TestManager {
  manager: ExpirationManager;
  clock: SingleTimerClock;
  revoker: RecordingRevoker;
  storage: Storage;
}

/** A restored manager over in-memory storage (or `storage`, to simulate a restart), a single-timer fake clock and a recording revoker. */
export async function createTestManager(
  options: { storage?: Storage; clock?: SingleTimerClock; revoker?: RecordingRevoker } = {},
): Promise<TestManager> {
  const clock = options.clock ?? new SingleTimerClock();
  const storage = options.storage ?? new InmemStorage();
  const revoker = options.revoker ?? new RecordingRevoker(clock);
  const manager = new ExpirationManager({
    storage,
    clock,
    random: new SeededRandom(7),
    logger: silentLogger,
    revoker,
    accessorDigest: testAccessorDigest,
  });
  await manager.restore();
  return { manager, clock, revoker, storage };
}

/** Moves the clock by `ms` and waits for the revocations that fell due. */
export async function advance(t: { manager: ExpirationManager; clock: SingleTimerClock }, ms: number): Promise<void> {
  t.clock.advance(ms);
  await t.manager.settled();
}
