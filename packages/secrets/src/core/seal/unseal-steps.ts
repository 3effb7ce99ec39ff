import type { Logger } from '@ward/base';
import type { CoreSealStatus } from '@ward/secrets-client';
import { InvalidRequestError } from '../../logical/errors.js';
import type { SealKeys } from './seal-keys.js';
import type { Migration, RotateRootKey } from './seal-migration.js';

/** The part of the core an unseal goes through (the core passes itself; this never imports it). */
export interface UnsealingCore {
  readonly sealKeys: SealKeys;
  readonly logger: Logger;
  isSealed(): boolean;
  isInitialized(): Promise<boolean>;
  sealStatus(): Promise<CoreSealStatus>;
  unsealWithRootKey(rootKey: Uint8Array, migration?: Migration): Promise<void>;
}

/** The barrier as an unseal opens it. */
export interface UnsealingBarrier {
  unseal(rootKey: Uint8Array): Promise<void>;
  seal(): void;
  rotateRootKey: RotateRootKey;
  /** A copy of the root key in use, `undefined` while sealed. */
  copyRootKey(): Uint8Array | undefined;
}

/** Told the root key once the barrier is open (the worker processes of one server unseal together). */
export interface RootKeyWatcher {
  unsealed(rootKey: Uint8Array): void;
}

/**
 * Adds one key share (an unseal share, or a recovery share with an auto seal); unseals when the
 * threshold is reached. With `migrate`, the shares are the old seal's and a threshold of them
 * also moves the storage to the configured seal.
 */
export async function submitUnsealShare(
  core: UnsealingCore,
  keyText: string,
  options: { migrate?: boolean },
): Promise<CoreSealStatus> {
  if (!(await core.isInitialized())) throw new InvalidRequestError('Vault is not initialized');
  if (!core.isSealed()) return core.sealStatus();
  const unlocked = await core.sealKeys.submit(keyText, { migrate: options.migrate === true });
  if (!unlocked) return core.sealStatus();
  try {
    await core.unsealWithRootKey(unlocked.rootKey, unlocked.migration);
  } finally {
    // Key material leaves memory as soon as it has served.
    unlocked.rootKey.fill(0);
    unlocked.migration?.discard();
  }
  return core.sealStatus();
}

/**
 * Auto-unseal: with an auto seal and no migration pending, reads the root key through the key
 * service and unseals, then re-wraps the seal's entries if its key was rotated. Answers whether
 * it unsealed (false with Shamir, before initialisation, or when already unsealed).
 */
export async function autoUnseal(core: UnsealingCore): Promise<boolean> {
  if (!core.isSealed() || !(await core.isInitialized())) return false;
  const source = await core.sealKeys.migrationSource();
  if (source !== undefined) {
    core.logger.warn("seal migration pending: unseal with the old seal's keys and -migrate");
    return false;
  }
  const rootKey = await core.sealKeys.storedRootKey();
  if (!rootKey) return false;
  try {
    await core.unsealWithRootKey(rootKey);
  } finally {
    rootKey.fill(0);
  }
  try {
    await core.sealKeys.upgradeKeys(core.logger);
  } catch (err) {
    core.logger.warn('could not re-wrap the seal entries under the current seal key', { err });
  }
  return true;
}

/**
 * Opens the barrier, finishing a seal migration if one is given (a failed migration closes the
 * barrier again), then tells `watcher` the root key in use: after a migration, the new one.
 */
export async function openBarrier(
  barrier: UnsealingBarrier,
  rootKey: Uint8Array,
  o: { migration?: Migration; logger: Logger; watcher?: RootKeyWatcher },
): Promise<void> {
  await barrier.unseal(rootKey);
  const { migration } = o;
  if (migration) {
    try {
      await migration.finish((alsoWrite) => barrier.rotateRootKey(alsoWrite));
    } catch (err) {
      barrier.seal();
      throw err;
    }
    o.logger.info('seal migration complete', { from: migration.from, to: migration.to });
  }
  const current = o.watcher && barrier.copyRootKey();
  if (!current) return;
  try {
    o.watcher?.unsealed(current);
  } finally {
    current.fill(0);
  }
}

/** `sys/seal-status` from the seal's keys; `cluster` (name and id) only while unsealed. */
export async function sealStatusOf(
  sealKeys: SealKeys,
  o: { isSealed: boolean; cluster: object | undefined },
): Promise<CoreSealStatus> {
  const stored = await sealKeys.config();
  const shares = await sealKeys.shareConfig();
  const isRecoverySeal = sealKeys.isRecoverySeal;
  return {
    type: sealKeys.type,
    initialized: stored !== undefined,
    sealed: o.isSealed,
    t: shares?.secret_threshold ?? 0,
    n: shares?.secret_shares ?? 0,
    progress: sealKeys.progress,
    nonce: sealKeys.nonce,
    migration: o.isSealed && (await sealKeys.migrationSource().catch(() => 'unknown')) !== undefined,
    recovery_seal: isRecoverySeal,
    ...(isRecoverySeal ? { recovery_seal_type: 'shamir' } : {}),
    ...(o.isSealed ? {} : o.cluster),
  };
}
