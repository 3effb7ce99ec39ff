import type { Random } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { StorageBackend } from '../../storage/index.js';
import { AutoSeal } from './auto-seal.js';
import type { KeyShareTarget } from './key-share-target.js';
import { RekeyOperation } from './rekey-operation.js';
import { RootGeneration } from './root-generation.js';
import { RootKeyRotation } from './root-key-rotation.js';
import { migrationFromAuto, migrationFromShamir, type RotateRootKey, type UnlockedRootKey } from './seal-migration.js';
import type { SealWrapper } from './seal-wrapper.js';
import { type SealConfig, ShamirSeal } from './shamir-seal.js';
import { parseUnsealKey, UnsealProgress } from './unseal-progress.js';

/** The seals the configuration names. */
export interface SealSetup {
  /** The enabled `seal` stanza's key service; without one the seal is Shamir. */
  wrapper?: SealWrapper;
  /** A `seal` stanza with `disabled = "true"`: the auto seal a migration moves away from. */
  previous?: SealWrapper;
}

/**
 * The seal as the server's lifecycle uses it: Shamir (shares unseal) or an auto seal (a key
 * service unseals; operators hold recovery shares), plus a pending seal migration when the
 * stored seal is not the configured one. Shares are submitted one by one (to unseal, or with
 * `migrate`), rekeyed, and used to generate a root token.
 */
export class SealKeys {
  readonly #shamir: ShamirSeal;
  readonly #auto: AutoSeal | undefined;
  readonly #previous: AutoSeal | undefined;
  readonly #progress: UnsealProgress;
  /**
   * `sys/rekey/*`: with Shamir, new unseal shares for the same root key; with an auto seal, a new
   * root key authorised by recovery shares (no shares come back).
   */
  readonly rekey: RekeyOperation;
  /** `sys/rekey-recovery-key/*`: a new recovery key and its shares (auto seals only). */
  readonly rekeyRecovery: RekeyOperation | undefined;
  /** `sys/generate-root/*`: a new root token from a threshold of unseal (or recovery) shares. */
  readonly rootGeneration: RootGeneration;

  constructor(deps: {
    physical: StorageBackend;
    random: Random;
    createRootToken: () => Promise<string>;
    /** The barrier's root-key rotation (a rekey under an auto seal). */
    rotateRootKey: RotateRootKey;
    seal?: SealSetup;
  }) {
    const { physical, random, createRootToken } = deps;
    this.#shamir = new ShamirSeal({ physical, random });
    const auto = (wrapper: SealWrapper | undefined) => wrapper && new AutoSeal({ physical, random, wrapper });
    this.#auto = auto(deps.seal?.wrapper);
    this.#previous = auto(deps.seal?.previous);
    this.#progress = new UnsealProgress(random);
    const rekeyTarget = this.#auto ? new RootKeyRotation(this.#auto, deps.rotateRootKey) : this.#shamir;
    this.rekey = new RekeyOperation({ seal: rekeyTarget, random });
    this.rekeyRecovery = this.#auto && new RekeyOperation({ seal: this.#auto.recovery, random });
    const target: KeyShareTarget = this.#auto?.recovery ?? this.#shamir;
    this.rootGeneration = new RootGeneration({ seal: target, random, createRootToken });
  }

  /** `sys/seal-status` `type`: the configured seal's name. */
  get type(): string {
    return this.#auto?.wrapper.type ?? 'shamir';
  }

  /** Whether operators hold recovery shares rather than unseal shares (an auto seal). */
  get isRecoverySeal(): boolean {
    return this.#auto !== undefined;
  }

  /** The stored seal configuration; `undefined` before initialisation. */
  config(): Promise<SealConfig | undefined> {
    return this.#shamir.config();
  }

  /**
   * The seal a pending migration moves from (`shamir` or the disabled stanza's auto seal), or
   * `undefined` when the stored seal is the configured one. A stored seal the configuration
   * names nowhere is an `InvalidRequestError` saying how to migrate.
   */
  async migrationSource(): Promise<'shamir' | AutoSeal | undefined> {
    const stored = await this.config();
    const configured = this.#auto?.wrapper.storedType ?? 'shamir';
    if (!stored || stored.type === configured) return undefined;
    if (stored.type === 'shamir') return 'shamir';
    if (this.#previous && stored.type === this.#previous.wrapper.storedType) return this.#previous;
    throw new InvalidRequestError(
      `the storage is sealed by "${stored.type}" but the configuration names "${configured}": to migrate, keep the old seal's stanza with disabled = "true"`,
    );
  }

  /** Shares and threshold the submitted shares count toward (the old seal's during a migration). */
  async shareConfig(): Promise<SealConfig | undefined> {
    const source = await this.migrationSource().catch(() => undefined);
    if (source === 'shamir') return this.config();
    if (source) return source.recovery.config();
    return this.#auto ? this.#auto.recovery.config() : this.config();
  }

  /**
   * Initialises the configured seal: Shamir makes the root key and `shares` unseal shares; an
   * auto seal makes the root key (stored wrapped) and `recoveryShares` recovery shares.
   */
  async initialize(options: {
    shares: number;
    threshold: number;
    recoveryShares: number;
    recoveryThreshold: number;
  }): Promise<{ keyShares: Uint8Array[]; recoveryShares: Uint8Array[]; rootKey: Uint8Array }> {
    if (!this.#auto) return { ...(await this.#shamir.initialize(options)), recoveryShares: [] };
    return { ...(await this.#auto.initialize(options)), keyShares: [] };
  }

  /** With an auto seal and no migration pending: the root key, read through the key service. */
  async storedRootKey(): Promise<Uint8Array | undefined> {
    if (!this.#auto || (await this.migrationSource()) !== undefined) return undefined;
    return this.#auto.rootKey();
  }

  /** Re-wraps the auto seal's entries under its current key (after a rotation); paths rewritten. */
  upgradeKeys(logger: Parameters<AutoSeal['upgradeKeys']>[0]): Promise<string[]> {
    return this.#auto ? this.#auto.upgradeKeys(logger) : Promise.resolve([]);
  }

  /**
   * Adds one share (unseal or recovery, or the old seal's with `migrate`). Once the threshold is
   * in, answers the root key; with `migrate`, also the migration to finish after the barrier opens.
   */
  async submit(keyText: string, options: { migrate: boolean }): Promise<UnlockedRootKey | undefined> {
    const source = await this.migrationSource();
    if (options.migrate && !source)
      throw new InvalidRequestError("can't perform a seal migration, no migration seal found");
    if (!options.migrate && source) {
      throw new InvalidRequestError('migrate option not provided and seal migration is pending');
    }
    const config = await this.shareConfig();
    this.#progress.submit(parseUnsealKey(keyText));
    if (this.#progress.progress < (config?.secret_threshold ?? 0)) return undefined;
    const shares = this.#progress.take();
    if (source === 'shamir') return migrationFromShamir(this.#shamir, this.#requireAuto(), shares);
    if (source) return migrationFromAuto(source, this.#auto ?? this.#shamir, shares);
    if (this.#auto) {
      const auto = this.#auto;
      return { rootKey: await auto.recovery.withRootKey(shares, () => auto.rootKey()) };
    }
    try {
      return { rootKey: await this.#shamir.recoverRootKey(shares) };
    } finally {
      for (const share of shares) share.fill(0);
    }
  }

  /** Distinct shares submitted toward the current unseal. */
  get progress(): number {
    return this.#progress.progress;
  }

  /** The current unseal attempt's UUID, or `''` when no share has been submitted. */
  get nonce(): string {
    return this.#progress.nonce;
  }

  /** Drops the shares submitted toward an unseal. */
  resetProgress(): void {
    this.#progress.reset();
  }

  /** Shares submitted toward a rekey or a root token do not outlive the unsealed state. */
  cancelOperations(): void {
    this.rekey.cancel();
    this.rekeyRecovery?.cancel();
    this.rootGeneration.cancel();
  }

  /** The wrappers' sessions and connections (at shutdown). */
  async close(): Promise<void> {
    await this.#auto?.wrapper.close();
    await this.#previous?.wrapper.close();
  }

  #requireAuto(): AutoSeal {
    if (!this.#auto) throw new InvalidRequestError('unhandled migration case (shamir to shamir)');
    return this.#auto;
  }
}
