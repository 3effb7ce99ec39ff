import type { Clock, Logger } from '@ward/base';
import type { ChangeFeed, StorageChange } from '../../storage/change-feed.js';
import { type InvalidationTargets, invalidateKeys, needsReload } from './cache-invalidation.js';

export interface PerformanceStandbyHooks {
  /** Loads everything behind the barrier for serving reads (the barrier refuses writes). */
  load(): Promise<void>;
  /** Drops everything loaded behind the barrier. */
  unload(): Promise<void>;
  /** The caches loaded now. */
  targets(): InvalidationTargets;
}

interface Waiter {
  revision: number;
  resolve: (isReached: boolean) => void;
}

/**
 * A standby that serves reads itself: everything behind the barrier is loaded as on the
 * active server, and kept right by the change feed. Each change from another server drops
 * what it made stale before the change's revision counts as reached, so a request that names
 * a revision (read-your-writes) is served only from caches at least that fresh.
 * A structural change, or a feed that lost track, reloads everything; a reload that fails
 * (the active server is midway through a change of several writes) is tried again on the
 * next change, and meanwhile nothing is served.
 */
export class PerformanceStandby {
  readonly #feed: ChangeFeed;
  readonly #hooks: PerformanceStandbyHooks;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #reached = 0;
  #isLoaded = false;
  /** A load is under way (requests wait for it); false after one failed, until the next change. */
  #isLoading = false;
  #isStopped = false;
  readonly #waiters = new Set<Waiter>();
  /** Loads and changes, one at a time. */
  #work: Promise<void> = Promise.resolve();

  constructor(feed: ChangeFeed, hooks: PerformanceStandbyHooks, deps: { clock: Clock; logger: Logger }) {
    this.#feed = feed;
    this.#hooks = hooks;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
  }

  /** Starts following the feed and loads; resolves once loaded (or the load failed and waits for a change). */
  async start(): Promise<void> {
    this.#reached = await this.#feed.start((change) => this.#serial(() => this.#apply(change)));
    await this.#serial(() => this.#reload());
  }

  /** Stops following the feed and unloads; pending waits answer "not reached". */
  async stop(): Promise<void> {
    this.#isStopped = true;
    await this.#feed.stop();
    await this.#work;
    this.#isLoaded = false;
    await this.#hooks.unload();
    for (const waiter of this.#waiters) waiter.resolve(false);
    this.#waiters.clear();
  }

  /** True while everything is loaded and kept up to date: reads may be served. */
  get isServing(): boolean {
    return this.#isLoaded && !this.#isStopped;
  }

  /** The highest revision every cache reflects. */
  get reached(): number {
    return this.#reached;
  }

  /**
   * Resolves true once `revision` is reached, false if `timeoutMs` passes (or the standby stops)
   * first. False at once while nothing is loaded and no load is under way (the last one failed):
   * the request goes to the active server without waiting.
   */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.#reached >= revision && this.isServing) return Promise.resolve(true);
    if (!this.#isLoaded && !this.#isLoading) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        revision,
        resolve: (isReached) => {
          cancel();
          this.#waiters.delete(waiter);
          resolve(isReached);
        },
      };
      const cancel = this.#clock.setTimeout(() => waiter.resolve(false), timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  #serial(step: () => Promise<void>): Promise<void> {
    const next = this.#work.then(() => (this.#isStopped ? undefined : step()));
    this.#work = next.catch(() => {});
    return next;
  }

  async #apply(change: StorageChange): Promise<void> {
    try {
      if (change.isEverything || !this.#isLoaded || needsReload(change.keys)) await this.#reload();
      else await invalidateKeys(this.#hooks.targets(), change.keys);
    } catch (err) {
      // A cache that could not be brought up to date must not serve: reload everything.
      this.#logger.warn('performance standby: invalidation failed; reloading', { error: (err as Error).message });
      await this.#reload();
    }
    this.#reached = Math.max(this.#reached, change.revision);
    this.#wakeReached();
  }

  #wakeReached(): void {
    if (!this.#isLoaded) return;
    for (const waiter of this.#waiters) if (waiter.revision <= this.#reached) waiter.resolve(true);
  }

  async #reload(): Promise<void> {
    this.#isLoaded = false;
    this.#isLoading = true;
    try {
      await this.#hooks.unload();
      await this.#hooks.load();
      this.#isLoaded = true;
      this.#wakeReached();
    } catch (err) {
      this.#logger.warn('performance standby: could not load; trying again on the next change', {
        error: (err as Error).message,
      });
      await this.#hooks.unload();
      for (const waiter of this.#waiters) waiter.resolve(false);
    } finally {
      this.#isLoading = false;
    }
  }
}
