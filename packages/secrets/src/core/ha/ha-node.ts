import type { Clock, Logger } from '@ward/base';
import type { BarrierHaRole } from '../barrier/index.js';
import type { InvalidationTargets } from './cache-invalidation.js';
import { HaCampaign, type HaOptions, type LeaderAddresses } from './ha-campaign.js';
import { PerformanceStandby } from './performance-standby.js';

/** What an HA server asks of the core it runs in. */
export interface HaNodeHooks {
  /** Loads everything behind the barrier and starts serving; `isStandby` loads for reading only. */
  load(options: { isStandby: boolean }): Promise<void>;
  /** Stops serving and drops everything loaded behind the barrier. */
  unload(): Promise<void>;
  /** The caches loaded now, for the change feed. */
  targets(): InvalidationTargets;
  /** The barrier's role: read-only while a performance standby; the one writer while active. */
  setBarrierRole(role: BarrierHaRole | undefined): void;
}

/**
 * One unsealed server sharing storage with others: standby (a performance standby loads
 * everything read-only and keeps it right from the change feed; a plain one loads nothing)
 * until it holds the HA lock, then active, loading again from storage as the one writer.
 */
export class HaNode {
  readonly #o: HaOptions;
  readonly #hooks: HaNodeHooks;
  readonly #deps: { clock: Clock; logger: Logger };
  readonly #campaign: HaCampaign;
  #perf: PerformanceStandby | undefined;

  constructor(options: HaOptions, hooks: HaNodeHooks, deps: { clock: Clock; logger: Logger }) {
    this.#o = options;
    this.#hooks = hooks;
    this.#deps = deps;
    this.#campaign = new HaCampaign(
      options,
      {
        becomeActive: async () => {
          await this.#stopPerformanceStandby();
          hooks.setBarrierRole('active');
          try {
            await hooks.load({ isStandby: false });
          } catch (err) {
            await hooks.unload();
            throw err;
          }
        },
        stepDown: async () => {
          await hooks.unload();
          hooks.setBarrierRole(undefined);
          await this.#startPerformanceStandby();
        },
      },
      { clock: deps.clock, logger: deps.logger.child({ component: 'ha' }) },
    );
  }

  /** A standby of this server serves reads itself (it has a change feed to keep its caches right). */
  get hasPerformanceStandby(): boolean {
    return this.#o.isPerformanceStandby === true && this.#o.feed !== undefined;
  }

  /** Loads as a performance standby (when enabled), then campaigns for the lock. */
  async start(): Promise<void> {
    await this.#startPerformanceStandby();
    this.#campaign.start();
  }

  /** Stops campaigning (the lock goes first, so another server takes over now) and following the feed. */
  async stop(): Promise<void> {
    await this.#campaign.stop();
    await this.#stopPerformanceStandby();
    this.#hooks.setBarrierRole(undefined);
  }

  /** True while this server holds the lock and has finished becoming active. */
  get isActive(): boolean {
    return this.#campaign.isActive;
  }

  /** True while a performance standby with everything loaded and up to date. */
  get isServingReads(): boolean {
    return !this.isActive && this.#perf?.isServing === true;
  }

  leader(): Promise<LeaderAddresses | undefined> {
    return this.#campaign.leader();
  }

  /** `sys/step-down`: see `HaCampaign.stepDown`; this server then serves as a standby again. */
  stepDown(): Promise<void> {
    return this.#campaign.stepDown();
  }

  /** The storage revision this server's answers reflect (see `Core.consistencyIndex`); 0 when none. */
  index(): number {
    return this.isServingReads ? (this.#perf?.reached ?? 0) : (this.#o.feed?.writtenRevision() ?? 0);
  }

  /** Resolves true once this server reflects `revision` (at once when active), false after `timeoutMs`. */
  async reach(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.isActive) return true;
    return (await this.#perf?.waitFor(revision, timeoutMs)) ?? false;
  }

  async #startPerformanceStandby(): Promise<void> {
    const feed = this.#o.feed;
    if (!this.#o.isPerformanceStandby || !feed) return;
    this.#hooks.setBarrierRole('standby');
    const { clock, logger } = this.#deps;
    this.#perf = new PerformanceStandby(
      feed,
      {
        load: () => this.#hooks.load({ isStandby: true }),
        unload: () => this.#hooks.unload(),
        targets: () => this.#hooks.targets(),
      },
      { clock, logger: logger.child({ component: 'performance-standby' }) },
    );
    await this.#perf.start();
  }

  async #stopPerformanceStandby(): Promise<void> {
    const perf = this.#perf;
    this.#perf = undefined;
    await perf?.stop();
  }
}
