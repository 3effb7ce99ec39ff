import type { Clock } from '@ward/base';

/** How long the number of a push stays readable at `verify/:nonce`: Okta's own push expires in 5 minutes. */
const KEEP_MS = 5 * 60_000;
/** Enough for every login in flight; the oldest go first past it. */
const MAX_ENTRIES = 10_000;

/**
 * The numbers Okta Verify asks the user to pick (number matching), by the nonce the client sent
 * with its login, so the client can show it (`verify/:nonce`) while the login waits on the push.
 * Memory only, per mount: a number is useful for seconds, and only on the server polling Okta.
 */
export class PushAnswers {
  readonly #entries = new Map<string, { answer: number; expiresAtMs: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  set(nonce: string, answer: number): void {
    this.#entries.delete(nonce);
    this.#entries.set(nonce, { answer, expiresAtMs: this.#clock.now() + KEEP_MS });
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= MAX_ENTRIES) break;
      this.#entries.delete(key);
    }
  }

  /** The number for `nonce`, `undefined` when none or expired. */
  get(nonce: string): number | undefined {
    const entry = this.#entries.get(nonce);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= this.#clock.now()) {
      this.#entries.delete(nonce);
      return undefined;
    }
    return entry.answer;
  }
}
