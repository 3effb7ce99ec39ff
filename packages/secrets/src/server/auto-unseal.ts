import type { Cancel, Clock, Logger } from '@ward/base';

/** How long to wait before asking an unreachable key service again. */
export const AUTO_UNSEAL_RETRY_MS = 5_000;

/** The part of the core auto-unseal drives. */
export interface AutoUnsealCore {
  /** Unseals through the key service; false when there is nothing to do (Shamir, uninitialised, unsealed). */
  unsealWithStoredKeys(): Promise<boolean>;
  readonly sealKeys: { readonly type: string };
}

/**
 * Unseals an auto-sealed server at start. A key service that cannot be reached (an HSM being
 * restarted, a KMS outage) leaves the server sealed and is asked again every 5 s, as the
 * established server keeps trying, until it answers or the server stops.
 */
export class AutoUnsealer {
  #retry: Cancel | undefined;
  #isStopped = false;

  constructor(
    private readonly core: AutoUnsealCore,
    private readonly deps: { clock: Clock; logger: Logger },
  ) {}

  /** One attempt now (awaited: the listeners open after it); failures schedule the next. */
  async start(): Promise<void> {
    try {
      if (await this.core.unsealWithStoredKeys()) {
        this.deps.logger.info('unsealed with the auto seal', { type: this.core.sealKeys.type });
      }
    } catch (err) {
      if (this.#isStopped) return;
      this.deps.logger.error('auto-unseal failed; the server stays sealed and tries again', {
        err,
        retryInMs: AUTO_UNSEAL_RETRY_MS,
      });
      this.#retry = this.deps.clock.setTimeout(() => void this.start(), AUTO_UNSEAL_RETRY_MS);
    }
  }

  stop(): void {
    this.#isStopped = true;
    this.#retry?.();
    this.#retry = undefined;
  }
}
