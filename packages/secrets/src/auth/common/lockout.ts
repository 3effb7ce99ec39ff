import type { Clock } from '@ward/base';
import type { LockedUser } from '../../logical/response.js';
import { optionInt } from './mount-options.js';

/** The established defaults: 5 failures within 15 minutes lock the user for 15 minutes. */
export interface LockoutSettings {
  threshold: number;
  durationMs: number;
  counterResetMs: number;
  disabled: boolean;
}

export const DEFAULT_LOCKOUT: LockoutSettings = {
  threshold: 5,
  durationMs: 15 * 60_000,
  counterResetMs: 15 * 60_000,
  disabled: false,
};

/** How many unknown names are remembered; the oldest is forgotten first. */
export const DEFAULT_UNKNOWN_NAMES_KEPT = 10_000;

interface Attempts {
  /** Settled failures in the current window. */
  failures: number;
  /** Reserved attempts whose password check has not finished. */
  inFlight: number;
  lastFailureMs: number;
  /** Set once the threshold is reached. */
  lockedSinceMs?: number;
}

/** A reserved attempt; settle it exactly once with the outcome of the password check. */
export interface LoginAttempt {
  settle(isSuccess: boolean): void;
}

/**
 * Failed-login counts per name, in memory (as established: a restart forgets them).
 *
 * An attempt is counted before its password is checked (reserve, then settle): with the
 * failures so far plus the checks still running at the threshold, further attempts are
 * refused without a check, so concurrent guesses cannot outrun the count.
 *
 * Unknown names are counted too, in a table of bounded size, so a locked name answers the
 * same whether or not the user exists. `sys/locked-users` lists existing users only.
 */
export class Lockout {
  readonly #users = new Map<string, Attempts>();
  readonly #unknown = new Map<string, Attempts>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: LockoutSettings = DEFAULT_LOCKOUT,
    private readonly unknownNamesKept = DEFAULT_UNKNOWN_NAMES_KEPT,
  ) {}

  /** Reserves an attempt for `name`; `undefined` when the name is locked or its attempts are used up. */
  reserve(name: string, isKnownUser: boolean): LoginAttempt | undefined {
    if (this.settings.disabled) return { settle: () => undefined };
    const table = isKnownUser ? this.#users : this.#unknown;
    const attempts = this.#current(table, name) ?? { failures: 0, inFlight: 0, lastFailureMs: 0 };
    if (attempts.lockedSinceMs !== undefined) return undefined;
    if (attempts.failures + attempts.inFlight >= this.settings.threshold) return undefined;
    attempts.inFlight++;
    this.#keep(table, name, attempts);
    let isSettled = false;
    return {
      settle: (isSuccess) => {
        if (isSettled) return;
        isSettled = true;
        this.#settle(table, name, attempts, isSuccess);
      },
    };
  }

  isLocked(name: string): boolean {
    return this.#current(this.#users, name)?.lockedSinceMs !== undefined;
  }

  unlock(name: string): void {
    this.#users.delete(name);
    this.#unknown.delete(name);
  }

  locked(): LockedUser[] {
    const out: LockedUser[] = [];
    for (const name of [...this.#users.keys()]) {
      const since = this.#current(this.#users, name)?.lockedSinceMs;
      if (since !== undefined) out.push({ aliasName: name, lockedSinceMs: since });
    }
    return out;
  }

  #settle(table: Map<string, Attempts>, name: string, attempts: Attempts, isSuccess: boolean): void {
    attempts.inFlight--;
    // A record replaced meanwhile (unlocked, expired, evicted) no longer counts this attempt.
    if (table.get(name) !== attempts) return;
    if (isSuccess) {
      // A success forgets earlier failures; checks still running keep their reservations.
      attempts.failures = 0;
      if (attempts.inFlight === 0) table.delete(name);
      return;
    }
    const now = this.clock.now();
    attempts.failures++;
    attempts.lastFailureMs = now;
    if (attempts.failures >= this.settings.threshold) attempts.lockedSinceMs = now;
  }

  /** The live record of `name`: a finished lock or a stale count is dropped first. */
  #current(table: Map<string, Attempts>, name: string): Attempts | undefined {
    const attempts = table.get(name);
    if (!attempts) return undefined;
    const now = this.clock.now();
    const isLockOver = attempts.lockedSinceMs !== undefined && now - attempts.lockedSinceMs >= this.settings.durationMs;
    const isCountStale =
      attempts.lockedSinceMs === undefined &&
      attempts.inFlight === 0 &&
      now - attempts.lastFailureMs > this.settings.counterResetMs;
    if (!isLockOver && !isCountStale) return attempts;
    table.delete(name);
    return undefined;
  }

  /** Stores `attempts` as the newest entry; the unknown-name table forgets its oldest beyond its size. */
  #keep(table: Map<string, Attempts>, name: string, attempts: Attempts): void {
    table.delete(name);
    table.set(name, attempts);
    if (table !== this.#unknown) return;
    for (const oldest of table.keys()) {
      if (table.size <= this.unknownNamesKept) break;
      table.delete(oldest);
    }
  }
}

/**
 * The lockout of an auth mount from its options: `lockout_threshold` (5), `lockout_duration`
 * (seconds, 900), `lockout_disable` (`true`).
 */
export function lockoutFromOptions(clock: Clock, options: Record<string, string>): Lockout {
  return new Lockout(clock, {
    threshold: optionInt(options, 'lockout_threshold', DEFAULT_LOCKOUT.threshold),
    durationMs: optionInt(options, 'lockout_duration', DEFAULT_LOCKOUT.durationMs / 1000) * 1000,
    counterResetMs: DEFAULT_LOCKOUT.counterResetMs,
    disabled: options.lockout_disable === 'true',
  });
}
