import { type Random, randomUuid } from '@ward/base';
import type { RekeyResult, RekeyStatus, RekeyVerifyResult, RekeyVerifyStatus } from '@ward/secrets-client';
import { KeyedMutex } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { KeyShareSet } from './key-share-set.js';
import type { KeyShareTarget } from './key-share-target.js';
import type { PendingKeyShares } from './shamir-seal.js';
import { parseUnsealKey } from './unseal-progress.js';

// The answers' shapes are the wire types of `@ward/secrets-client`: one source for both sides.
export type { RekeyResult, RekeyStatus, RekeyVerifyResult, RekeyVerifyStatus };

interface Attempt {
  nonce: string;
  shares: number;
  threshold: number;
  requireVerification: boolean;
  collected: KeyShareSet;
}

interface Verification {
  nonce: string;
  pending: PendingKeyShares;
  collected: KeyShareSet;
}

/**
 * A rekey of the Shamir seal, as established: an operator starts it with the new share
 * count and threshold, holders of the current shares submit them (against the attempt's
 * nonce), and the last one gets the new shares, which replace the old ones at once or,
 * with `require_verification`, only after a threshold of the new shares has been submitted
 * back (so nobody loses the vault to a mistyped distribution). The root key is unchanged.
 */
export class RekeyOperation {
  readonly #seal: KeyShareTarget;
  readonly #random: Random;
  /** One share at a time: the share that completes the threshold must not race another. */
  readonly #lock = new KeyedMutex();
  #attempt: Attempt | undefined;
  #verification: Verification | undefined;

  constructor(deps: { seal: KeyShareTarget; random: Random }) {
    this.#seal = deps.seal;
    this.#random = deps.random;
  }

  async status(): Promise<RekeyStatus> {
    const a = this.#attempt;
    return {
      nonce: a?.nonce ?? '',
      started: a !== undefined,
      t: a?.threshold ?? 0,
      n: a?.shares ?? 0,
      progress: a?.collected.size ?? 0,
      required: await this.#currentThreshold(),
      pgp_fingerprints: null,
      backup: false,
      verification_required: a?.requireVerification ?? false,
      ...(this.#verification ? { verification_nonce: this.#verification.nonce } : {}),
    };
  }

  /** Starts an attempt; one at a time (`rekey already in progress`). */
  async start(options: { shares: number; threshold: number; requireVerification: boolean }): Promise<RekeyStatus> {
    if (this.#attempt) throw new InvalidRequestError('rekey already in progress');
    // Validates the counts now, with the established texts, rather than after every share is in.
    const counts = this.#seal.rekeyCounts(options);
    this.#attempt = { nonce: randomUuid(this.#random), ...options, ...counts, collected: new KeyShareSet() };
    return this.status();
  }

  /** Drops the attempt, its shares and any pending verification. */
  cancel(): void {
    this.#attempt?.collected.clear();
    this.#attempt = undefined;
    this.#dropVerification();
  }

  /** Submits one current share; answers the new shares when it completes the threshold, else `undefined`. */
  async update(keyText: string, nonce: string): Promise<RekeyResult | undefined> {
    return this.#lock.run('rekey', async () => {
      const a = this.#attempt;
      if (!a) throw new InvalidRequestError('no rekey in progress');
      if (this.#verification) throw new InvalidRequestError('rekey verification in progress');
      checkNonce(a.nonce, nonce);
      if (!a.collected.add(parseUnsealKey(keyText))) {
        throw new InvalidRequestError('given key has already been provided during this rekey operation');
      }
      if (a.collected.size < (await this.#currentThreshold())) return undefined;
      const pending = await this.#seal.withRootKey(a.collected.take(), (rootKey) =>
        this.#seal.newKeyShares(rootKey, a),
      );
      const keys = pending.keyShares.map((k) => Buffer.from(k));
      const result: RekeyResult = {
        nonce: a.nonce,
        complete: true,
        keys: keys.map((k) => k.toString('hex')),
        keys_base64: keys.map((k) => k.toString('base64')),
        pgp_fingerprints: null,
        backup: false,
        verification_required: a.requireVerification,
      };
      if (a.requireVerification) {
        this.#verification = { nonce: randomUuid(this.#random), pending, collected: new KeyShareSet() };
        return { ...result, verification_nonce: this.#verification.nonce };
      }
      await this.#install(pending);
      return result;
    });
  }

  verifyStatus(): RekeyVerifyStatus {
    const v = this.#verification;
    if (!v) throw new InvalidRequestError('no rekey configuration found');
    return {
      nonce: v.nonce,
      started: true,
      t: v.pending.config.secret_threshold,
      n: v.pending.config.secret_shares,
      progress: v.collected.size,
    };
  }

  /** Restarts verification: the shares so far are dropped and a new nonce is issued. */
  restartVerification(): RekeyVerifyStatus {
    const v = this.#verification;
    if (!v) throw new InvalidRequestError('no rekey configuration found');
    v.collected.clear();
    v.nonce = randomUuid(this.#random);
    return this.verifyStatus();
  }

  /** Submits one new share; the new shares take effect when a threshold of them combines to the new key. */
  async verify(keyText: string, nonce: string): Promise<RekeyVerifyResult | undefined> {
    return this.#lock.run('rekey', async () => {
      const v = this.#verification;
      if (!v) throw new InvalidRequestError('no rekey configuration found');
      checkNonce(v.nonce, nonce);
      if (!v.collected.add(parseUnsealKey(keyText))) {
        throw new InvalidRequestError('given key has already been provided during this verify operation');
      }
      if (v.collected.size < v.pending.config.secret_threshold) return undefined;
      const shares = v.collected.take();
      try {
        if (!(await this.#seal.combinesTo(v.pending, shares))) {
          throw new InvalidRequestError('failed to verify the new key shares: they do not combine to the new key');
        }
      } finally {
        for (const s of shares) s.fill(0);
      }
      await this.#install(v.pending);
      return { nonce: v.nonce, complete: true };
    });
  }

  async #install(pending: PendingKeyShares): Promise<void> {
    try {
      await this.#seal.storeKeyShares(pending);
    } finally {
      pending.kek.fill(0);
      this.#attempt = undefined;
      this.#verification = undefined;
    }
  }

  #dropVerification(): void {
    this.#verification?.collected.clear();
    this.#verification?.pending.kek.fill(0);
    this.#verification = undefined;
  }

  async #currentThreshold(): Promise<number> {
    return (await this.#seal.config())?.secret_threshold ?? 0;
  }
}

/** The nonce of the attempt a share is meant for must be the current one. */
export function checkNonce(expected: string, given: string): void {
  if (!given) throw new InvalidRequestError('missing nonce');
  if (given !== expected) throw new InvalidRequestError(`incorrect nonce`);
}
