import { InvalidRequestError } from '../../logical/errors.js';
import type { AutoSeal } from './auto-seal.js';
import type { KeyShareTarget, RekeyOptions } from './key-share-target.js';
import type { RotateRootKey } from './seal-migration.js';
import type { PendingKeyShares, SealConfig } from './shamir-seal.js';

/**
 * `sys/rekey/*` under an auto seal, as established: a threshold of recovery shares authorises a
 * new root key (the keyring re-encrypted under it, the auto seal's entry re-wrapped, in one
 * transaction). Nobody holds the root key, so no shares come back; PGP, backup and
 * verification do not apply.
 */
export class RootKeyRotation implements KeyShareTarget {
  constructor(
    private readonly auto: AutoSeal,
    private readonly rotateRootKey: RotateRootKey,
  ) {}

  config(): Promise<SealConfig | undefined> {
    return this.auto.recovery.config();
  }

  rekeyCounts(options: RekeyOptions): { shares: number; threshold: number } {
    if (options.requireVerification) {
      throw new InvalidRequestError(
        'requiring verification not supported when rekeying the barrier key with recovery keys',
      );
    }
    return { shares: 0, threshold: 0 };
  }

  withRootKey<T>(shares: Uint8Array[], fn: (key: Uint8Array) => Promise<T>): Promise<T> {
    return this.auto.recovery.withRootKey(shares, fn);
  }

  async newKeyShares(): Promise<PendingKeyShares> {
    const config: SealConfig = { type: this.auto.wrapper.storedType, secret_shares: 0, secret_threshold: 0 };
    return { keyShares: [], kek: new Uint8Array(0), sealedRootKey: new Uint8Array(0), config };
  }

  async combinesTo(): Promise<boolean> {
    return false;
  }

  async storeKeyShares(): Promise<void> {
    await this.rotateRootKey(async (newRootKey) => this.auto.rootKeyOperations(newRootKey));
  }
}
