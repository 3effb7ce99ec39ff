import type { Logger, Random } from '@ward/base';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import { encodeJson, type StorageOperation } from '../../logical/storage.js';
import type { StorageBackend } from '../../storage/index.js';
import { RECOVERY_KEY_PATH, RecoveryKeys, recoveryKeyOperations, type StoredRecoveryKey } from './recovery-keys.js';
import type { SealWrapper } from './seal-wrapper.js';
import { SEAL_CONFIG_PATH, type SealConfig, UNSEAL_KEYS_PATH } from './shamir-seal.js';
import { unwrapEntry, wrapEntry, wrappedKeyId } from './wrapped-entry.js';

const KEY_BYTES = 32;

/**
 * An auto seal: the root key is stored wrapped by a key service (`SealWrapper`), so the server
 * reads it back by itself at every start; operators hold recovery key shares instead of unseal
 * keys. Layout as established: `core/seal-config` (type, 1/1, 1 stored share),
 * `core/hsm/barrier-unseal-keys` (the root key), `core/recovery-config`, `core/recovery-key`.
 */
export class AutoSeal {
  readonly #physical: StorageBackend;
  readonly #random: Random;
  readonly wrapper: SealWrapper;
  readonly recovery: RecoveryKeys;

  constructor(deps: { physical: StorageBackend; random: Random; wrapper: SealWrapper }) {
    this.#physical = deps.physical;
    this.#random = deps.random;
    this.wrapper = deps.wrapper;
    this.recovery = new RecoveryKeys(deps);
  }

  /** `core/seal-config` of this seal. */
  sealConfig(): SealConfig {
    return { type: this.wrapper.storedType, secret_shares: 1, secret_threshold: 1, stored_shares: 1 };
  }

  /**
   * Makes the root key and the recovery key (split into `recoveryShares`; none for 0) and
   * stores the seal's entries in one transaction. The caller zeroes the root key.
   */
  async initialize(options: { recoveryShares: number; recoveryThreshold: number }): Promise<{
    recoveryShares: Uint8Array[];
    rootKey: Uint8Array;
  }> {
    validateRecoveryCounts(options.recoveryShares, options.recoveryThreshold);
    if ((await this.#physical.get(SEAL_CONFIG_PATH)) !== undefined) {
      throw new InvalidRequestError('Vault is already initialized');
    }
    const rootKey = this.#random.bytes(KEY_BYTES);
    const pending = await this.#newRecoveryKey(options);
    try {
      await this.#physical.transaction(await this.storeOperations(rootKey, pending));
      return { recoveryShares: pending?.keyShares ?? [], rootKey };
    } finally {
      pending?.kek.fill(0);
    }
  }

  /** The writes that make this seal the one in force for `rootKey`, with the recovery key of `recovery`. */
  async storeOperations(rootKey: Uint8Array, recovery: StoredRecoveryKey | undefined): Promise<StorageOperation[]> {
    return [
      { op: 'put', key: SEAL_CONFIG_PATH, value: encodeJson(this.sealConfig()) },
      { op: 'put', key: UNSEAL_KEYS_PATH, value: await this.#wrapRootKey(rootKey) },
      ...recoveryKeyOperations(recovery),
    ];
  }

  /** The write that keeps `rootKey` (a rotation of the root key) wrapped by this seal. */
  async rootKeyOperations(rootKey: Uint8Array): Promise<StorageOperation[]> {
    return [{ op: 'put', key: UNSEAL_KEYS_PATH, value: await this.#wrapRootKey(rootKey) }];
  }

  /** The writes that keep the stored recovery key (re-wrapped by this seal) and make this seal the one in force. */
  async takeOverOperations(rootKey: Uint8Array, recoveryKey: Uint8Array | undefined): Promise<StorageOperation[]> {
    const ops: StorageOperation[] = [
      { op: 'put', key: SEAL_CONFIG_PATH, value: encodeJson(this.sealConfig()) },
      { op: 'put', key: UNSEAL_KEYS_PATH, value: await this.#wrapRootKey(rootKey) },
    ];
    if (recoveryKey) {
      const value = await wrapEntry(this.wrapper, this.#random, RECOVERY_KEY_PATH, recoveryKey);
      ops.push({ op: 'put', key: RECOVERY_KEY_PATH, value });
    }
    return ops;
  }

  /** Reads the root key through the key service (the caller zeroes it). */
  async rootKey(): Promise<Uint8Array> {
    const stored = await this.#physical.get(UNSEAL_KEYS_PATH);
    if (stored === undefined) throw new InternalError(`seal is configured but ${UNSEAL_KEYS_PATH} is missing`);
    const plaintext = await unwrapEntry(this.wrapper, UNSEAL_KEYS_PATH, stored);
    try {
      const [rootKey] = JSON.parse(plaintext.toString('utf8')) as string[];
      if (rootKey === undefined) throw new InternalError(`${UNSEAL_KEYS_PATH} holds no key`);
      return new Uint8Array(Buffer.from(rootKey, 'base64'));
    } finally {
      plaintext.fill(0);
    }
  }

  /**
   * After the seal's key was rotated: re-wraps the root key and the recovery key under the key
   * (version) in use now, so they stay readable once the old version is retired. Answers the
   * paths it rewrote.
   */
  async upgradeKeys(logger: Logger): Promise<string[]> {
    const current = await this.wrapper.currentKeyId();
    const rewritten: string[] = [];
    for (const path of [UNSEAL_KEYS_PATH, RECOVERY_KEY_PATH]) {
      const stored = await this.#physical.get(path);
      if (stored === undefined || wrappedKeyId(stored) === current) continue;
      const plaintext = await unwrapEntry(this.wrapper, path, stored);
      try {
        await this.#physical.put(path, await wrapEntry(this.wrapper, this.#random, path, plaintext));
      } finally {
        plaintext.fill(0);
      }
      rewritten.push(path);
    }
    if (rewritten.length > 0) logger.info('re-wrapped the seal entries under the current seal key', { keyId: current });
    return rewritten;
  }

  #wrapRootKey(rootKey: Uint8Array): Promise<Uint8Array> {
    const keys = Buffer.from(JSON.stringify([Buffer.from(rootKey).toString('base64')]), 'utf8');
    return wrapEntry(this.wrapper, this.#random, UNSEAL_KEYS_PATH, keys).finally(() => keys.fill(0));
  }

  #newRecoveryKey(options: { recoveryShares: number; recoveryThreshold: number }) {
    if (options.recoveryShares === 0) return Promise.resolve(undefined);
    return this.recovery.sharesOf(this.#random.bytes(KEY_BYTES), {
      shares: options.recoveryShares,
      threshold: options.recoveryThreshold,
    });
  }
}

/** As for unseal keys, except that 0 shares with threshold 0 is allowed: no recovery key at all. */
function validateRecoveryCounts(shares: number, threshold: number): void {
  if (shares === 0 && threshold === 0) return;
  if (shares === 0)
    throw new InvalidRequestError('invalid recovery configuration: threshold must be 0 when shares is 0');
}
