import { timingSafeEqual } from 'node:crypto';
import type { Random } from '@ward/base';
// Privy's shamir-secret-sharing: zero dependencies, audited by Cure53 and Zellic, and a port of
// HashiCorp's own Go implementation (GF(2^8), AES polynomial, x-coordinate as the last byte), so
// a 32-byte key splits into the 33-byte shares operators of the established servers know.
// Its coefficients come from its own CSPRNG (`crypto.getRandomValues`), not from our `Random`.
import { combine, split } from 'shamir-secret-sharing';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import { decodeJson, encodeJson } from '../../logical/storage.js';
import type { StorageBackend } from '../../storage/index.js';
import { decryptEntry, encryptEntry } from '../barrier/index.js';

/** Seal configuration, stored in the clear: seal-status reports it while sealed. */
export const SEAL_CONFIG_PATH = 'core/seal-config';
/** The root key, encrypted with the unseal key (KEK); only the KEK is ever split. */
export const UNSEAL_KEYS_PATH = 'core/hsm/barrier-unseal-keys';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
/** The stored-keys entry uses the barrier's format; the KEK has no keyring term, so it is term 1. */
const UNSEAL_KEYS_TERM = 1;
const AUTH_FAILED = 'cipher: message authentication failed';

/**
 * Stored at `core/seal-config`; field names as the established servers write them. `type` is
 * `shamir`, or an auto seal's type (then 1 share, 1 threshold, 1 stored share: nobody holds it).
 */
export interface SealConfig {
  type: string;
  secret_shares: number;
  secret_threshold: number;
  stored_shares?: number;
}

/** Key shares made but not yet in force (`ShamirSeal.newKeyShares`). */
export interface PendingKeyShares {
  keyShares: Uint8Array[];
  /** The unseal key the shares combine to. */
  kek: Uint8Array;
  /** The root key encrypted with `kek`, as stored at `UNSEAL_KEYS_PATH`. */
  sealedRootKey: Uint8Array;
  config: SealConfig;
}

export interface ShamirSealOptions {
  /** The bootstrap entries live here directly: they cannot sit behind a barrier they open. */
  physical: StorageBackend;
  /** Draws the root key, the unseal key and the nonce. */
  random: Random;
}

/**
 * Shamir seal: at init it makes a root key and a separate unseal key (KEK), keeps the root key
 * encrypted with the KEK, and hands out the KEK split into shares. Unsealing reverses that.
 */
export class ShamirSeal {
  readonly #physical: StorageBackend;
  readonly #random: Random;

  constructor(options: ShamirSealOptions) {
    this.#physical = options.physical;
    this.#random = options.random;
  }

  rekeyCounts(options: { shares: number; threshold: number }): { shares: number; threshold: number } {
    validateCounts(options.shares, options.threshold);
    return { shares: options.shares, threshold: options.threshold };
  }

  /** The stored configuration, or `undefined` before initialisation. */
  async config(): Promise<SealConfig | undefined> {
    const stored = await this.#physical.get(SEAL_CONFIG_PATH);
    if (stored === undefined) return undefined;
    return decodeJson<SealConfig>(stored);
  }

  /**
   * Makes the root key and KEK, stores the encrypted root key and the configuration in one
   * transaction, and returns the KEK's shares (1 share: the raw 32-byte KEK; more: 33 bytes each).
   * Refuses bad counts with the established 400 messages, and a second initialisation.
   */
  async initialize(options: { shares: number; threshold: number }): Promise<{
    keyShares: Uint8Array[];
    rootKey: Uint8Array;
  }> {
    validateCounts(options.shares, options.threshold);
    if (await this.config()) throw new InvalidRequestError('Vault is already initialized');
    const rootKey = this.#random.bytes(KEY_BYTES);
    const pending = await this.newKeyShares(rootKey, options);
    try {
      await this.storeKeyShares(pending);
      return { keyShares: pending.keyShares, rootKey };
    } finally {
      pending.kek.fill(0);
    }
  }

  /**
   * A new unseal key (KEK) for `rootKey`, split into shares, with the root key encrypted
   * under it; nothing is stored until `storeKeyShares` (a rekey may wait for verification).
   * Refuses bad counts with the established 400 messages. The caller zeroes `kek` when done.
   */
  async newKeyShares(rootKey: Uint8Array, options: { shares: number; threshold: number }): Promise<PendingKeyShares> {
    return this.keySharesOf(this.#random.bytes(KEY_BYTES), rootKey, options);
  }

  /**
   * Shares of the given unseal key `kek` (taken over: zeroed on failure, else by the caller
   * through `pending.kek`) with `rootKey` encrypted under it. A migration from an auto seal
   * makes the recovery key the unseal key this way, so the recovery shares unseal from then on.
   */
  async keySharesOf(
    kek: Uint8Array,
    rootKey: Uint8Array,
    options: { shares: number; threshold: number },
  ): Promise<PendingKeyShares> {
    try {
      validateCounts(options.shares, options.threshold);
      const keys = Buffer.from(JSON.stringify([Buffer.from(rootKey).toString('base64')]), 'utf8');
      const nonce = this.#random.bytes(NONCE_BYTES);
      const sealedRootKey = encryptEntry(kek, UNSEAL_KEYS_TERM, UNSEAL_KEYS_PATH, nonce, keys);
      keys.fill(0);
      const keyShares =
        options.shares === 1
          ? [new Uint8Array(kek)]
          : await split(new Uint8Array(kek), options.shares, options.threshold);
      const config: SealConfig = { type: 'shamir', secret_shares: options.shares, secret_threshold: options.threshold };
      return { keyShares, kek, sealedRootKey, config };
    } catch (err) {
      kek.fill(0);
      throw err;
    }
  }

  /** Recovers the root key from `shares` and hands it to `fn`; the key and the shares are zeroed after, whatever happens. */
  async withRootKey<T>(shares: Uint8Array[], fn: (rootKey: Uint8Array) => Promise<T>): Promise<T> {
    try {
      const rootKey = await this.recoverRootKey(shares);
      try {
        return await fn(rootKey);
      } finally {
        rootKey.fill(0);
      }
    } finally {
      for (const s of shares) s.fill(0);
    }
  }

  /** Whether `shares` (at least the pending threshold) combine to the unseal key of `pending`. */
  async combinesTo(pending: PendingKeyShares, shares: Uint8Array[]): Promise<boolean> {
    const kek = pending.config.secret_threshold === 1 ? new Uint8Array(shares[0] ?? []) : await combineShares(shares);
    try {
      return kek.length === pending.kek.length && timingSafeEqual(kek, pending.kek);
    } finally {
      kek.fill(0);
    }
  }

  /** Makes `pending` the seal's keys: the encrypted root key and the configuration, in one transaction. */
  async storeKeyShares(pending: PendingKeyShares): Promise<void> {
    await this.#physical.transaction([
      { op: 'put', key: UNSEAL_KEYS_PATH, value: pending.sealedRootKey },
      { op: 'put', key: SEAL_CONFIG_PATH, value: encodeJson(pending.config) },
    ]);
  }

  /**
   * Combines `shares` (at least the threshold) into the KEK and decrypts the root key with it.
   * Wrong, mixed or duplicate shares are an `InvalidRequestError` starting `invalid key: `.
   */
  async recoverRootKey(shares: Uint8Array[]): Promise<Uint8Array> {
    const { rootKey, kek } = await this.recoverKeys(shares);
    kek.fill(0);
    return rootKey;
  }

  /**
   * Like `recoverRootKey`, but hands back the unseal key (KEK) too: a migration to an auto seal
   * keeps it as the recovery key, so the operators' shares stay valid. The caller zeroes both.
   */
  async recoverKeys(shares: Uint8Array[]): Promise<{ rootKey: Uint8Array; kek: Uint8Array }> {
    const config = await this.config();
    if (config?.type !== undefined && config.type !== 'shamir') {
      throw new InternalError(`the stored seal is "${config.type}", not shamir`);
    }
    if (!config) throw new InvalidRequestError('Vault is not initialized');
    if (shares.length < config.secret_threshold) {
      throw new InvalidRequestError(
        `invalid key: ${config.secret_threshold} key shares are needed, ${shares.length} given`,
      );
    }
    const stored = await this.#physical.get(UNSEAL_KEYS_PATH);
    if (stored === undefined) throw new InternalError(`seal is configured but ${UNSEAL_KEYS_PATH} is missing`);
    const kek = config.secret_threshold === 1 ? new Uint8Array(shares[0]!) : await combineShares(shares);
    let isKept = false;
    try {
      if (kek.length !== KEY_BYTES) {
        throw new InvalidRequestError(
          `invalid key: failed to decrypt keys from storage: crypto/aes: invalid key size ${kek.length}`,
        );
      }
      const plaintext = decryptEntry(kek, UNSEAL_KEYS_PATH, stored);
      if (plaintext === undefined)
        throw new InvalidRequestError(`invalid key: failed to decrypt keys from storage: ${AUTH_FAILED}`);
      const [rootKey] = JSON.parse(plaintext.toString('utf8')) as string[];
      plaintext.fill(0);
      if (rootKey === undefined) throw new InternalError(`${UNSEAL_KEYS_PATH} holds no key`);
      isKept = true;
      return { rootKey: new Uint8Array(Buffer.from(rootKey, 'base64')), kek };
    } finally {
      if (!isKept) kek.fill(0);
    }
  }
}

/** The checks and texts of the established servers, in their order. */
export function validateCounts(shares: number, threshold: number): void {
  if (!Number.isSafeInteger(shares)) throw new InvalidRequestError('shares must be an integer');
  if (!Number.isSafeInteger(threshold)) throw new InvalidRequestError('threshold must be an integer');
  if (shares < 1) throw new InvalidRequestError('shares must be at least one');
  if (threshold < 1) throw new InvalidRequestError('threshold must be at least one');
  if (shares > 1 && threshold === 1) {
    throw new InvalidRequestError('threshold must be greater than one for multiple shares');
  }
  if (shares > 255) throw new InvalidRequestError('shares must be less than 256');
  if (threshold > 255) throw new InvalidRequestError('threshold must be less than 256');
  if (threshold > shares) throw new InvalidRequestError('threshold cannot be larger than shares');
}

/** Lagrange-combines the shares; the checks come first so the errors read like HashiCorp's. */
export async function combineShares(shares: Uint8Array[]): Promise<Uint8Array> {
  const fail = (reason: string) => new InvalidRequestError(`invalid key: failed to compute combined key: ${reason}`);
  const length = shares[0]?.length ?? 0;
  if (shares.some((s) => s.length !== length)) throw fail('all parts must be the same length');
  if (length < 2) throw fail('parts must be at least two bytes');
  const xs = new Set(shares.map((s) => s[length - 1]));
  if (xs.size !== shares.length) throw fail('duplicate part detected');
  try {
    // The library checks `constructor === Uint8Array`, which a Node Buffer fails.
    return await combine(shares.map((s) => new Uint8Array(s)));
  } catch (err) {
    throw fail(err instanceof Error ? err.message : String(err));
  }
}
