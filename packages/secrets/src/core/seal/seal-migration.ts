import { encodeJson, type StorageOperation } from '../../logical/storage.js';
import { AutoSeal } from './auto-seal.js';
import { RECOVERY_CONFIG_PATH, RECOVERY_KEY_PATH } from './recovery-keys.js';
import { SEAL_CONFIG_PATH, type ShamirSeal, UNSEAL_KEYS_PATH } from './shamir-seal.js';

/** Writes the keyring under a new root key together with the seal entries `alsoWrite` makes for it. */
export type RotateRootKey = (alsoWrite: (newRootKey: Uint8Array) => Promise<StorageOperation[]>) => Promise<void>;

/** What a threshold of shares unlocked: the root key, and the migration to finish once the barrier is open. */
export interface UnlockedRootKey {
  /** The caller zeroes it. */
  rootKey: Uint8Array;
  migration?: Migration;
}

/**
 * A seal migration whose shares are in: `finish` runs once the barrier is open and puts the
 * configured seal in force in one transaction; `discard` drops the key material it kept when
 * the unseal fails before that.
 */
export interface Migration {
  from: string;
  to: string;
  finish(rotateRootKey: RotateRootKey): Promise<void>;
  discard(): void;
}

/**
 * Shamir → auto, as established: the combined unseal key becomes the recovery key (so the
 * operators' shares keep working, now as recovery shares), and the root key is replaced, the new
 * one stored only wrapped by the auto seal.
 */
export async function migrationFromShamir(
  shamir: ShamirSeal,
  auto: AutoSeal,
  shares: Uint8Array[],
): Promise<UnlockedRootKey> {
  const config = await shamir.config();
  const { rootKey, kek } = await shamir.recoverKeys(shares).finally(() => {
    for (const s of shares) s.fill(0);
  });
  const migration: Migration = {
    from: 'shamir',
    to: auto.wrapper.type,
    async finish(rotateRootKey) {
      try {
        if (!config) throw new Error('no seal configuration');
        const recovery = await auto.recovery.kept(kek, config);
        await rotateRootKey((newRootKey) => auto.storeOperations(newRootKey, recovery));
      } finally {
        kek.fill(0);
      }
    },
    discard: () => kek.fill(0),
  };
  return { rootKey, migration };
}

/**
 * From an auto seal (a stanza with `disabled = "true"`), with its recovery shares. To Shamir:
 * the recovery key becomes the unseal key and the recovery shares the unseal shares (threshold
 * and count kept). To another auto seal: the root key and recovery key are re-wrapped by it.
 * The root key is replaced in every case, as the configured seal's entries are written.
 */
export async function migrationFromAuto(
  source: AutoSeal,
  target: AutoSeal | ShamirSeal,
  shares: Uint8Array[],
): Promise<UnlockedRootKey> {
  const recoveryConfig = await source.recovery.config();
  let recoveryKey = new Uint8Array();
  const rootKey = await source.recovery.withRootKey(shares, async (key) => {
    recoveryKey = new Uint8Array(key);
    return source.rootKey();
  });
  const migration: Migration = {
    from: source.wrapper.type,
    to: target instanceof AutoSeal ? target.wrapper.type : 'shamir',
    async finish(rotateRootKey) {
      try {
        if (target instanceof AutoSeal) {
          await rotateRootKey((newRootKey) => target.takeOverOperations(newRootKey, recoveryKey));
          return;
        }
        await rotateRootKey(async (newRootKey) => {
          const pending = await target.keySharesOf(new Uint8Array(recoveryKey), newRootKey, {
            shares: recoveryConfig?.secret_shares ?? 1,
            threshold: recoveryConfig?.secret_threshold ?? 1,
          });
          pending.kek.fill(0);
          for (const share of pending.keyShares) share.fill(0);
          return [
            { op: 'put', key: UNSEAL_KEYS_PATH, value: pending.sealedRootKey },
            { op: 'put', key: SEAL_CONFIG_PATH, value: encodeJson(pending.config) },
            { op: 'delete', key: RECOVERY_CONFIG_PATH },
            { op: 'delete', key: RECOVERY_KEY_PATH },
          ];
        });
      } finally {
        recoveryKey.fill(0);
      }
    },
    discard: () => recoveryKey.fill(0),
  };
  return { rootKey, migration };
}
