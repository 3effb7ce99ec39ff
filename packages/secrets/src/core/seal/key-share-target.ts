import type { PendingKeyShares, SealConfig } from './shamir-seal.js';

/** What a rekey is started with. */
export interface RekeyOptions {
  shares: number;
  threshold: number;
  requireVerification: boolean;
}

/**
 * A key split into shares that operators hold: the Shamir seal's unseal key, or an auto seal's
 * recovery key. Rekeys (`sys/rekey/*`, `sys/rekey-recovery-key/*`) and root-token generation
 * work against either through this.
 */
export interface KeyShareTarget {
  /** Shares and threshold in force; `undefined` before initialisation. */
  config(): Promise<SealConfig | undefined>;
  /**
   * The counts a rekey will make, checked when it starts (the established 400 texts): the counts
   * asked for, or what the target makes instead (no shares for an auto seal's root key).
   */
  rekeyCounts(options: RekeyOptions): { shares: number; threshold: number };
  /**
   * Combines `shares` (at least the threshold), checks them against what is stored, and hands
   * the key they stand for to `fn` (the root key for Shamir, the recovery key for an auto seal).
   * Wrong shares are an `InvalidRequestError` starting `invalid key: `. Shares and key are zeroed after.
   */
  withRootKey<T>(shares: Uint8Array[], fn: (key: Uint8Array) => Promise<T>): Promise<T>;
  /** New shares (nothing stored yet); `key` is what `withRootKey` handed over. */
  newKeyShares(key: Uint8Array, options: { shares: number; threshold: number }): Promise<PendingKeyShares>;
  /** Whether `shares` combine to the key of `pending`. */
  combinesTo(pending: PendingKeyShares, shares: Uint8Array[]): Promise<boolean>;
  /** Puts `pending` in force, in one transaction. */
  storeKeyShares(pending: PendingKeyShares): Promise<void>;
}
