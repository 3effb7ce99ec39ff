import type { Clock, Logger } from '@ward/base';
import type { ChangeFeed } from '../../storage/change-feed.js';
import type { HaLock } from '../../storage/ha-lock.js';
import type { ClusterTls } from './cluster-tls.js';

export type { HaLock };

/** Where the active server can be reached, as it advertises itself in the lock. */
export interface LeaderAddresses {
  apiAddr: string;
  clusterAddr: string;
}

/** What the composition root hands the core when several servers share one storage. */
export interface HaOptions {
  /** A fresh lock advertising `value` (each campaign takes a new one). */
  newLock(value: string): HaLock;
  /** This server's addresses, asked when a campaign starts (listeners may bind port 0). */
  advertise(): LeaderAddresses;
  /**
   * Resolves once `advertise()` knows the addresses (the listeners are bound). The first campaign
   * waits for it: an auto seal unseals before the listeners open, and a lock taken then would name
   * no address, so no standby could reach the active server.
   */
  addressesKnown?: Promise<void>;
  /** Called while becoming active, before the first request is served: the cluster listener takes the TLS material. */
  onActive?(tls: ClusterTls): void | Promise<void>;
  /** What the other servers change in the shared storage, and the revision this one's writes reached. */
  feed?: ChangeFeed;
  /** With a feed, a standby loads everything and serves reads itself (else it serves nothing). */
  isPerformanceStandby?: boolean;
}

export interface CampaignHooks {
  /** Loads everything behind the barrier and starts serving; a failure releases the lock. */
  becomeActive(): Promise<void>;
  /** Stops serving and drops every cache (the lock was lost). */
  stepDown(): Promise<void>;
}

/** How long a campaign waits before trying again after storage failed it. */
const RETRY_MS = 1_000;
/** After `sys/step-down` this server waits so long before campaigning again, so another one takes over. */
export const STEP_DOWN_PAUSE_MS = 10_000;

/**
 * One unsealed server's campaign for the HA lock: standby until it holds the lock, active while it
 * does, standby again (and campaigning) if the lock is lost. Started on unseal, stopped on seal.
 */
export class HaCampaign {
  readonly #o: HaOptions;
  readonly #hooks: CampaignHooks;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #lock: HaLock | undefined;
  #isActive = false;
  #isStopped = false;
  #stop: () => void = () => {};
  readonly #stopped = new Promise<void>((resolve) => {
    this.#stop = resolve;
  });
  #loop: Promise<void> = Promise.resolve();
  /** Set while active: asks the campaign to step down, and is called back once it has. */
  #requestStepDown: ((done: () => void) => void) | undefined;

  constructor(o: HaOptions, hooks: CampaignHooks, deps: { clock: Clock; logger: Logger }) {
    this.#o = o;
    this.#hooks = hooks;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
  }

  /** True while this server holds the lock and has finished becoming active. */
  get isActive(): boolean {
    return this.#isActive;
  }

  start(): void {
    this.#loop = this.#campaign();
  }

  /** Stops campaigning and releases the lock (without running stepDown: the caller seals). */
  async stop(): Promise<void> {
    this.#isStopped = true;
    this.#isActive = false;
    this.#stop();
    await this.#lock?.release();
    await this.#loop;
  }

  /**
   * `sys/step-down`: stops serving, releases the lock (another server takes over at once) and
   * campaigns again after STEP_DOWN_PAUSE_MS. Resolves once stepped down; nothing to do when standby.
   */
  stepDown(): Promise<void> {
    const request = this.#requestStepDown;
    if (!request) return Promise.resolve();
    this.#requestStepDown = undefined;
    return new Promise((resolve) => request(resolve));
  }

  /** The active server's addresses, from the lock (this server's own when it is active). */
  async leader(): Promise<LeaderAddresses | undefined> {
    const value = await this.#lock?.holder();
    if (value === undefined) return undefined;
    try {
      const parsed = JSON.parse(value) as Partial<LeaderAddresses>;
      return { apiAddr: String(parsed.apiAddr ?? ''), clusterAddr: String(parsed.clusterAddr ?? '') };
    } catch {
      return undefined;
    }
  }

  async #campaign(): Promise<void> {
    await Promise.race([this.#o.addressesKnown, this.#stopped]);
    while (!this.#isStopped) {
      const lock = this.#o.newLock(JSON.stringify(this.#o.advertise()));
      this.#lock = lock;
      let lost = false;
      const lostSignal = new Promise<void>((resolve) =>
        lock.onLost(() => {
          lost = true;
          resolve();
        }),
      );
      const taken = await this.#takeLock(lock);
      if (taken === 'stopped') break;
      if (taken === 'retry') continue;
      this.#isActive = true;
      this.#logger.info('HA: this server is active');
      const stepDownAsked = new Promise<() => void>((resolve) => {
        this.#requestStepDown = resolve;
      });
      const done = await Promise.race([lostSignal, this.#stopped, stepDownAsked]);
      this.#requestStepDown = undefined;
      this.#isActive = false;
      if (typeof done === 'function') await this.#stepDownOnRequest(lock, done);
      else if (this.#isStopped || !lost) break;
      else {
        this.#logger.warn('HA: lost the lock; stepping down to standby');
        await this.#hooks.stepDown();
      }
    }
  }

  /** Waits for the lock and becomes active; a failure to become active releases it and waits a moment. */
  async #takeLock(lock: HaLock): Promise<'active' | 'retry' | 'stopped'> {
    try {
      await lock.acquire();
      if (this.#isStopped) return 'stopped';
      await this.#hooks.becomeActive();
      return 'active';
    } catch (err) {
      if (this.#isStopped) return 'stopped';
      this.#logger.warn('HA: could not become active; trying again', { error: (err as Error).message });
      await lock.release();
      await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, RETRY_MS));
      return 'retry';
    }
  }

  /** Stops serving before the lock goes (two servers never act as active at once), then pauses campaigning. */
  async #stepDownOnRequest(lock: HaLock, done: () => void): Promise<void> {
    this.#logger.info('HA: stepping down on request');
    try {
      if (!this.#isStopped) await this.#hooks.stepDown();
      await lock.release();
    } finally {
      done();
    }
    const pause = new Promise<void>((resolve) => this.#clock.setTimeout(resolve, STEP_DOWN_PAUSE_MS));
    await Promise.race([this.#stopped, pause]);
  }
}
