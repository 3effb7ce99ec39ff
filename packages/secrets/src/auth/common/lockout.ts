import type { Clock } from '@ward/base';
import { TooManyRequestsError } from '../../logical/errors.js';
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

/**
 * How many attempts for one name may wait for a place, and for how long, before they are
 * answered 429: a burst of correct logins waits (issue 28), a flood is bounded.
 */
export interface LockoutQueue {
  maxWaitingPerName: number;
  maxWaitMs: number;
}

export const DEFAULT_LOCKOUT_QUEUE: LockoutQueue = { maxWaitingPerName: 1_000, maxWaitMs: 10_000 };

/**
 * An attempt waiting for a place: admitted with its attempt, or with `undefined` once the name
 * is locked. One whose wait ran out is `isDone` and is skipped, so no place goes to nobody.
 */
interface Waiter {
  admit(attempt: LoginAttempt | undefined): void;
  isDone: boolean;
}

interface Attempts {
  /** Settled failures in the current window. */
  failures: number;
  /** Reserved attempts whose password check has not finished. */
  inFlight: number;
  lastFailureMs: number;
  /** Set once the threshold is reached. */
  lockedSinceMs?: number;
  /** Attempts waiting for a place, first come first admitted. */
  waiting: Waiter[];
}

/** A reserved attempt; settle it exactly once with the outcome of the password check. */
export interface LoginAttempt {
  settle(isSuccess: boolean): void;
}

const NO_OP_ATTEMPT: LoginAttempt = { settle: () => undefined };

/**
 * Failed-login counts per name, in memory (as established: a restart forgets them).
 *
 * An attempt is counted before its password is checked (acquire, then settle): no more checks
 * run at once than the failures still allowed (threshold minus failures so far), so concurrent
 * guesses cannot outrun the count. An attempt beyond that waits for a running check to settle,
 * in a bounded queue for a bounded time (then `TooManyRequestsError`, 429); it is never refused
 * as if its credentials were wrong. Once the name locks, every waiting attempt is refused.
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
    private readonly queue: LockoutQueue = DEFAULT_LOCKOUT_QUEUE,
  ) {}

  /**
   * An attempt for `name`, once a place is free; `undefined` when the name is locked (also when
   * it locks while this attempt waits). Rejects with `TooManyRequestsError` when the queue of the
   * name is full or the wait runs out.
   */
  acquire(name: string, isKnownUser: boolean): Promise<LoginAttempt | undefined> {
    if (this.settings.disabled) return Promise.resolve(NO_OP_ATTEMPT);
    return new Promise((resolve, reject) => {
      const table = isKnownUser ? this.#users : this.#unknown;
      const waiter: Waiter = { admit: resolve, isDone: false };
      if (this.#admitNow(table, name, waiter)) return;
      const attempts = table.get(name);
      if (!attempts || attempts.waiting.length >= this.queue.maxWaitingPerName) {
        reject(tooManyAttempts());
        return;
      }
      const cancel = this.clock.setTimeout(() => {
        waiter.isDone = true;
        reject(tooManyAttempts());
      }, this.queue.maxWaitMs);
      waiter.admit = (attempt) => {
        cancel();
        resolve(attempt);
      };
      attempts.waiting.push(waiter);
    });
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

  /**
   * Admits `waiter` at once when the name is locked (with `undefined`) or has a free place and
   * nobody ahead of it; answers whether it did. Otherwise the name's record exists on return.
   */
  #admitNow(table: Map<string, Attempts>, name: string, waiter: Waiter): boolean {
    const attempts = this.#current(table, name) ?? { failures: 0, inFlight: 0, lastFailureMs: 0, waiting: [] };
    if (attempts.lockedSinceMs !== undefined) {
      waiter.admit(undefined);
      return true;
    }
    this.#keep(table, name, attempts);
    if (attempts.waiting.length > 0 || !this.#hasPlace(attempts)) return false;
    waiter.admit(this.#start(table, name, attempts));
    return true;
  }

  #hasPlace(attempts: Attempts): boolean {
    return attempts.failures + attempts.inFlight < this.settings.threshold;
  }

  #start(table: Map<string, Attempts>, name: string, attempts: Attempts): LoginAttempt {
    attempts.inFlight++;
    let isSettled = false;
    return {
      settle: (isSuccess) => {
        if (isSettled) return;
        isSettled = true;
        this.#settle(table, name, attempts, isSuccess);
      },
    };
  }

  #settle(table: Map<string, Attempts>, name: string, attempts: Attempts, isSuccess: boolean): void {
    attempts.inFlight--;
    // A record replaced meanwhile (unlocked, expired, evicted) no longer counts this attempt;
    // its waiters start over on the name's current record.
    if (table.get(name) !== attempts) {
      for (const waiter of attempts.waiting.splice(0)) {
        if (!waiter.isDone && !this.#admitNow(table, name, waiter)) table.get(name)?.waiting.push(waiter);
      }
      return;
    }
    if (isSuccess) {
      // A success forgets earlier failures; checks still running keep their reservations.
      attempts.failures = 0;
    } else {
      const now = this.clock.now();
      attempts.failures++;
      attempts.lastFailureMs = now;
      if (attempts.failures >= this.settings.threshold) attempts.lockedSinceMs = now;
    }
    this.#admitWaiting(table, name, attempts);
    if (isSuccess && attempts.inFlight === 0) table.delete(name);
  }

  /** Lets waiting attempts in while places are free; all of them, refused, once the name is locked. */
  #admitWaiting(table: Map<string, Attempts>, name: string, attempts: Attempts): void {
    if (attempts.lockedSinceMs !== undefined) {
      for (const waiter of attempts.waiting.splice(0)) waiter.admit(undefined);
      return;
    }
    while (this.#hasPlace(attempts)) {
      const waiter = attempts.waiting.shift();
      if (!waiter) return;
      if (!waiter.isDone) waiter.admit(this.#start(table, name, attempts));
    }
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

function tooManyAttempts(): TooManyRequestsError {
  return new TooManyRequestsError('too many concurrent login attempts for this name; retry later');
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
