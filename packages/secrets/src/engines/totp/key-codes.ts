import { otpParams, type TotpKeyEntry } from './key-store.js';
import { matchesAny, type OtpParams, stepAt, windowCodes } from './otp.js';

/**
 * The codes of one stored key around the step last asked for. A key checked many times
 * within one period decodes its base32 secret once and computes its window's HMACs once per
 * step, not once per request. Held in memory only, beside the decoded entry it comes from
 * (the barrier's cache holds the secret itself); the replay record stays in storage.
 */
class KeyCodes {
  readonly #params: OtpParams;
  readonly #skew: number;
  #step = Number.NaN;
  #window: readonly Buffer[] = [];

  constructor(entry: Readonly<TotpKeyEntry>) {
    this.#params = otpParams(entry);
    this.#skew = entry.skew;
  }

  /** The code of the step containing `unixSeconds`. */
  code(unixSeconds: number): string {
    return (this.#windowAt(unixSeconds)[0] as Buffer).toString('utf8');
  }

  /** Whether `code` is the code of that step or of one `skew` allows (see `matchesAny`). */
  isValid(code: string, unixSeconds: number): boolean {
    return matchesAny(this.#windowAt(unixSeconds), code);
  }

  #windowAt(unixSeconds: number): readonly Buffer[] {
    const step = stepAt(unixSeconds, this.#params.periodSeconds);
    if (step !== this.#step) {
      this.#window = windowCodes(this.#params, step, this.#skew);
      this.#step = step;
    }
    return this.#window;
  }
}

/**
 * One `KeyCodes` per decoded key entry of a mount, keyed by the frozen object `getFrozenJson`
 * hands out: the same object while storage holds the same entry, a new one once the key is
 * written again, so nothing here is ever stale. A WeakMap lets the codes go with their entry.
 */
export class KeyCodesCache {
  readonly #byEntry = new WeakMap<Readonly<TotpKeyEntry>, KeyCodes>();

  of(entry: Readonly<TotpKeyEntry>): KeyCodes {
    let codes = this.#byEntry.get(entry);
    if (codes === undefined) {
      codes = new KeyCodes(entry);
      this.#byEntry.set(entry, codes);
    }
    return codes;
  }
}
