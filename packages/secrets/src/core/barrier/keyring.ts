import type { Clock, Random } from '@ward/base';
import { InternalError } from '../../logical/errors.js';

/** AES-256. */
export const KEY_BYTES = 32;
const MAX_TERM = 0xffff_ffff;

/** One encryption key of the keyring. */
export interface KeyTerm {
  /** Written into every value it encrypts (4 bytes), so old values find their key after a rotation. */
  readonly term: number;
  readonly key: Uint8Array;
  readonly installTimeMs: number;
  /** Values encrypted with this key; shared by the keyring's copies, so counts made meanwhile are kept. */
  encryptions: number;
}

/** The stored form. Keys are base64; field names are ours, the file is never read by another server. */
interface KeyringJson {
  active_term: number;
  terms: Array<{ term: number; key: string; install_time_ms: number; encryptions: number }>;
}

/**
 * The barrier's data keys: numbered terms from 1, the highest one active. Old terms stay so
 * values written before a rotation still decrypt. Stored encrypted with the root key.
 */
export class Keyring {
  readonly #terms: Map<number, KeyTerm>;
  #activeTerm: number;

  private constructor(terms: Map<number, KeyTerm>, activeTerm: number) {
    this.#terms = terms;
    this.#activeTerm = activeTerm;
  }

  /** A keyring holding term 1, a fresh random key. */
  static create(random: Random, clock: Clock): Keyring {
    const keyring = new Keyring(new Map(), 0);
    keyring.rotate(random, clock);
    return keyring;
  }

  /** Reads the form `toJson` writes; anything else is an `InternalError` (the stored keyring is damaged). */
  static fromJson(json: string): Keyring {
    let parsed: KeyringJson;
    try {
      parsed = JSON.parse(json) as KeyringJson;
    } catch (err) {
      throw new InternalError('stored keyring is not valid JSON', { cause: err });
    }
    const terms = new Map<number, KeyTerm>();
    for (const t of parsed.terms ?? []) {
      const key = new Uint8Array(Buffer.from(t.key, 'base64'));
      if (key.length !== KEY_BYTES) throw new InternalError(`stored keyring term ${t.term} has a bad key length`);
      terms.set(t.term, { term: t.term, key, installTimeMs: t.install_time_ms, encryptions: t.encryptions });
    }
    if (!terms.has(parsed.active_term)) throw new InternalError('stored keyring has no active term');
    return new Keyring(terms, parsed.active_term);
  }

  toJson(): string {
    const body: KeyringJson = {
      active_term: this.#activeTerm,
      terms: [...this.#terms.values()].map((t) => ({
        term: t.term,
        key: Buffer.from(t.key).toString('base64'),
        install_time_ms: t.installTimeMs,
        encryptions: t.encryptions,
      })),
    };
    return JSON.stringify(body);
  }

  /** The key new values are encrypted with. */
  get active(): KeyTerm {
    // The constructor's callers guarantee the active term exists.
    return this.#terms.get(this.#activeTerm)!;
  }

  /** The key of `term`, or `undefined` when this keyring never had it. */
  term(term: number): KeyTerm | undefined {
    return this.#terms.get(term);
  }

  /** Adds term n+1 with a fresh random key and makes it active. */
  rotate(random: Random, clock: Clock): KeyTerm {
    const term = this.#activeTerm + 1;
    if (term > MAX_TERM) throw new InternalError('keyring term would overflow 32 bits');
    const added: KeyTerm = { term, key: random.bytes(KEY_BYTES), installTimeMs: clock.now(), encryptions: 0 };
    if (added.key.length !== KEY_BYTES) throw new InternalError('random source returned a short key');
    this.#terms.set(term, added);
    this.#activeTerm = term;
    return added;
  }

  /** A keyring with the same terms (the same objects), to rotate without touching this one. */
  clone(): Keyring {
    return new Keyring(new Map(this.#terms), this.#activeTerm);
  }

  /** Overwrites every key with zeroes; the keyring is useless afterwards. */
  zero(): void {
    for (const t of this.#terms.values()) t.key.fill(0);
    this.#terms.clear();
  }
}
