import { timingSafeEqual } from 'node:crypto';
import type { Random } from '@ward/base';
import { split } from 'shamir-secret-sharing';
import { InvalidRequestError } from '../../logical/errors.js';
import { decodeJson, encodeJson, type StorageOperation } from '../../logical/storage.js';
import type { StorageBackend } from '../../storage/index.js';
import type { KeyShareTarget } from './key-share-target.js';
import type { SealWrapper } from './seal-wrapper.js';
import { combineShares, type PendingKeyShares, type SealConfig, validateCounts } from './shamir-seal.js';
import { unwrapEntry, wrapEntry } from './wrapped-entry.js';

/** Shares and threshold of the recovery key, in the clear (seal-status reports them while sealed). */
export const RECOVERY_CONFIG_PATH = 'core/recovery-config';
/** The recovery key, wrapped by the auto seal. */
export const RECOVERY_KEY_PATH = 'core/recovery-key';

const KEY_BYTES = 32;

/**
 * The recovery key of an auto seal: a random key split into shares, as established. It
 * decrypts nothing (the seal's key service holds what unseals); a threshold of its shares
 * authorises what would otherwise take unseal keys: unsealing after `sys/seal`, a root token,
 * a rekey, a seal migration.
 */
export class RecoveryKeys implements KeyShareTarget {
  readonly #physical: StorageBackend;
  readonly #random: Random;
  readonly #wrapper: SealWrapper;

  constructor(deps: { physical: StorageBackend; random: Random; wrapper: SealWrapper }) {
    this.#physical = deps.physical;
    this.#random = deps.random;
    this.#wrapper = deps.wrapper;
  }

  rekeyCounts(options: { shares: number; threshold: number }): { shares: number; threshold: number } {
    validateCounts(options.shares, options.threshold);
    return { shares: options.shares, threshold: options.threshold };
  }

  async config(): Promise<SealConfig | undefined> {
    const stored = await this.#physical.get(RECOVERY_CONFIG_PATH);
    return stored === undefined ? undefined : decodeJson<SealConfig>(stored);
  }

  /** The stored recovery key (the caller zeroes it); `undefined` when none was made (0 shares). */
  async key(): Promise<Uint8Array | undefined> {
    const stored = await this.#physical.get(RECOVERY_KEY_PATH);
    if (stored === undefined) return undefined;
    return new Uint8Array(await unwrapEntry(this.#wrapper, RECOVERY_KEY_PATH, stored));
  }

  /**
   * Combines the shares and compares the result with the stored recovery key (in constant
   * time); a mismatch is `invalid key: recovery key does not match submitted values`.
   */
  async withRootKey<T>(shares: Uint8Array[], fn: (key: Uint8Array) => Promise<T>): Promise<T> {
    let combined: Uint8Array | undefined;
    let stored: Uint8Array | undefined;
    try {
      const config = await this.config();
      if (!config || config.secret_shares === 0) throw new InvalidRequestError('no recovery keys were generated');
      if (shares.length < config.secret_threshold) {
        throw new InvalidRequestError(
          `invalid key: ${config.secret_threshold} key shares are needed, ${shares.length} given`,
        );
      }
      combined = config.secret_threshold === 1 ? new Uint8Array(shares[0] ?? []) : await combineShares(shares);
      stored = await this.key();
      if (!stored || stored.length !== combined.length || !timingSafeEqual(stored, combined)) {
        throw new InvalidRequestError('invalid key: recovery key does not match submitted values');
      }
      return await fn(combined);
    } finally {
      combined?.fill(0);
      stored?.fill(0);
      for (const s of shares) s.fill(0);
    }
  }

  /** A new random recovery key and its shares; the old key plays no part in the new one. */
  async newKeyShares(_key: Uint8Array, options: { shares: number; threshold: number }): Promise<PendingKeyShares> {
    return this.sharesOf(this.#random.bytes(KEY_BYTES), options);
  }

  /**
   * Shares of `key` (taken over: the caller zeroes `pending.kek`) with the key wrapped for
   * storage. A migration from Shamir keeps the old unseal key as recovery key this way.
   */
  async sharesOf(key: Uint8Array, options: { shares: number; threshold: number }): Promise<PendingKeyShares> {
    try {
      validateCounts(options.shares, options.threshold);
      const keyShares =
        options.shares === 1
          ? [new Uint8Array(key)]
          : await split(new Uint8Array(key), options.shares, options.threshold);
      const sealedRootKey = await wrapEntry(this.#wrapper, this.#random, RECOVERY_KEY_PATH, key);
      const config: SealConfig = { type: 'shamir', secret_shares: options.shares, secret_threshold: options.threshold };
      return { keyShares, kek: key, sealedRootKey, config };
    } catch (err) {
      key.fill(0);
      throw err;
    }
  }

  /** The stored form of `key` kept as recovery key with `config` (a migration from Shamir: the operators' shares stay valid). */
  async kept(key: Uint8Array, config: SealConfig): Promise<StoredRecoveryKey> {
    const sealedRootKey = await wrapEntry(this.#wrapper, this.#random, RECOVERY_KEY_PATH, key);
    return {
      sealedRootKey,
      config: { type: 'shamir', secret_shares: config.secret_shares, secret_threshold: config.secret_threshold },
    };
  }

  async combinesTo(pending: PendingKeyShares, shares: Uint8Array[]): Promise<boolean> {
    const key = pending.config.secret_threshold === 1 ? new Uint8Array(shares[0] ?? []) : await combineShares(shares);
    try {
      return key.length === pending.kek.length && timingSafeEqual(key, pending.kek);
    } finally {
      key.fill(0);
    }
  }

  async storeKeyShares(pending: PendingKeyShares): Promise<void> {
    await this.#physical.transaction(recoveryKeyOperations(pending));
  }
}

/** A recovery key as stored: wrapped, with its shares and threshold. */
export type StoredRecoveryKey = Pick<PendingKeyShares, 'sealedRootKey' | 'config'>;

/** The writes that put a recovery key and its configuration in force (part of a larger transaction at init and migration). */
export function recoveryKeyOperations(pending: StoredRecoveryKey | undefined): StorageOperation[] {
  if (!pending) {
    // 0 shares: nobody holds a recovery key, so none is stored.
    const none: SealConfig = { type: 'shamir', secret_shares: 0, secret_threshold: 0 };
    return [
      { op: 'put', key: RECOVERY_CONFIG_PATH, value: encodeJson(none) },
      { op: 'delete', key: RECOVERY_KEY_PATH },
    ];
  }
  return [
    { op: 'put', key: RECOVERY_KEY_PATH, value: pending.sealedRootKey },
    { op: 'put', key: RECOVERY_CONFIG_PATH, value: encodeJson(pending.config) },
  ];
}
