import type { Logger } from '@ward/base';
import type { Core } from '../core/core.js';
import type { SealWatcher } from '../core/core-types.js';
import { isMessageOf, type PrimaryMessage, type WorkerMessage } from './worker-messages.js';

/** The IPC channel to the primary, as a worker process has it. */
export interface PrimaryChannel {
  send(message: WorkerMessage): void;
  onMessage(handler: (message: unknown) => void): void;
}

/**
 * A worker's side of "unseal one, unseal all": it tells the primary when its barrier opens (with
 * the root key, for the siblings still sealed) or is sealed through `sys/seal`, and applies what
 * the primary relays from a sibling. Its own shutdown seals it without telling anyone: the others
 * keep serving.
 */
export class WorkerSealSync {
  readonly #channel: PrimaryChannel;
  readonly #logger: Logger;
  #core: Core | undefined;
  #isShuttingDown = false;
  #isApplying = false;

  readonly watcher: SealWatcher = {
    unsealed: (rootKey) =>
      this.#channel.send({ type: 'ward:unsealed', rootKey: Buffer.from(rootKey).toString('base64') }),
    sealed: () => {
      if (!this.#isShuttingDown && !this.#isApplying) this.#channel.send({ type: 'ward:sealed' });
    },
  };

  constructor(channel: PrimaryChannel, deps: { logger: Logger }) {
    this.#channel = channel;
    this.#logger = deps.logger;
  }

  /** The core is built and serving: siblings' seal changes apply to it from now on. */
  attach(core: Core): void {
    this.#core = core;
    this.#channel.onMessage((message) => {
      if (isMessageOf<PrimaryMessage>(message)) void this.#apply(message);
    });
    this.#channel.send({ type: 'ward:ready' });
  }

  /** From now on sealing is this process's shutdown, not news for the siblings. */
  shuttingDown(): void {
    this.#isShuttingDown = true;
  }

  async #apply(message: PrimaryMessage): Promise<void> {
    const core = this.#core;
    if (!core || this.#isShuttingDown) return;
    if (message.type === 'ward:share-root-key') {
      const rootKey = core.barrier.copyRootKey();
      if (!rootKey) return;
      this.#channel.send({
        type: 'ward:root-key',
        forWorker: message.forWorker,
        rootKey: Buffer.from(rootKey).toString('base64'),
      });
      rootKey.fill(0);
      return;
    }
    if (message.type !== 'ward:seal' && message.type !== 'ward:unseal') return;
    if (this.#isApplying) return;
    this.#isApplying = true;
    try {
      if (message.type === 'ward:seal') await core.seal();
      else if (message.type === 'ward:unseal' && core.barrier.isSealed()) await this.#unseal(core, message.rootKey);
    } catch (err) {
      this.#logger.warn('could not follow a sibling worker', { change: message.type, error: (err as Error).message });
    } finally {
      this.#isApplying = false;
    }
  }

  async #unseal(core: Core, rootKeyText: string): Promise<void> {
    const rootKey = new Uint8Array(Buffer.from(rootKeyText, 'base64'));
    try {
      await core.unsealWithRootKey(rootKey);
      this.#logger.info('unsealed by a sibling worker');
    } finally {
      rootKey.fill(0);
    }
  }
}
