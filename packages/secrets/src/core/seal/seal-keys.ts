import type { Random } from '@ward/base';
import type { StorageBackend } from '../../storage/index.js';
import { RekeyOperation } from './rekey-operation.js';
import { RootGeneration } from './root-generation.js';
import { type SealConfig, ShamirSeal } from './shamir-seal.js';
import { parseUnsealKey, UnsealProgress } from './unseal-progress.js';

/**
 * The seal's key shares as the server's lifecycle uses them: made at initialisation, submitted
 * one by one to unseal, replaced by a rekey, and used to generate a root token.
 */
export class SealKeys {
  readonly #seal: ShamirSeal;
  readonly #progress: UnsealProgress;
  /** `sys/rekey/*`: new shares for the same root key. */
  readonly rekey: RekeyOperation;
  /** `sys/generate-root/*`: a new root token from a threshold of shares. */
  readonly rootGeneration: RootGeneration;

  constructor(deps: { physical: StorageBackend; random: Random; createRootToken: () => Promise<string> }) {
    const { physical, random, createRootToken } = deps;
    this.#seal = new ShamirSeal({ physical, random });
    this.#progress = new UnsealProgress(random);
    this.rekey = new RekeyOperation({ seal: this.#seal, random });
    this.rootGeneration = new RootGeneration({ seal: this.#seal, random, createRootToken });
  }

  /** Shares and threshold; `undefined` before initialisation. */
  config(): Promise<SealConfig | undefined> {
    return this.#seal.config();
  }

  /** Makes the root key and the shares that recover it (stored only as the seal's configuration). */
  initialize(options: {
    shares: number;
    threshold: number;
  }): Promise<{ keyShares: Uint8Array[]; rootKey: Uint8Array }> {
    return this.#seal.initialize(options);
  }

  /**
   * Adds one share. Once `threshold` distinct shares are in, they recover the root key (the
   * caller zeroes it once used); the shares leave memory as soon as they have served.
   */
  async submit(keyText: string, threshold: number): Promise<Uint8Array | undefined> {
    this.#progress.submit(parseUnsealKey(keyText));
    if (this.#progress.progress < threshold) return undefined;
    const shares = this.#progress.take();
    try {
      return await this.#seal.recoverRootKey(shares);
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
    this.rootGeneration.cancel();
  }
}
