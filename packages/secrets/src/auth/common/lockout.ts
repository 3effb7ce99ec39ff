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

interface Failures {
  count: number;
  lastFailureMs: number;
  /** Set once the threshold is reached. */
  lockedSinceMs?: number;
}

/**
 * Failed-login counts per user, in memory (as established: a restart forgets them). Only
 * failures of existing users count, so an attacker cannot lock names that do not exist.
 */
export class Lockout {
  readonly #failures = new Map<string, Failures>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: LockoutSettings = DEFAULT_LOCKOUT,
  ) {}

  isLocked(name: string): boolean {
    const f = this.#failures.get(name);
    if (this.settings.disabled || f?.lockedSinceMs === undefined) return false;
    if (this.clock.now() - f.lockedSinceMs < this.settings.durationMs) return true;
    this.#failures.delete(name);
    return false;
  }

  recordFailure(name: string): void {
    if (this.settings.disabled) return;
    const now = this.clock.now();
    const previous = this.#failures.get(name);
    const stale = !previous || now - previous.lastFailureMs > this.settings.counterResetMs;
    const count = stale ? 1 : previous.count + 1;
    this.#failures.set(name, {
      count,
      lastFailureMs: now,
      ...(count >= this.settings.threshold ? { lockedSinceMs: now } : {}),
    });
  }

  /** A successful login forgets earlier failures. */
  recordSuccess(name: string): void {
    this.#failures.delete(name);
  }

  unlock(name: string): void {
    this.#failures.delete(name);
  }

  locked(): LockedUser[] {
    return [...this.#failures.keys()]
      .filter((name) => this.isLocked(name))
      .map((name) => ({ aliasName: name, lockedSinceMs: this.#failures.get(name)?.lockedSinceMs ?? 0 }));
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
