import type { Clock, Logger } from '@ward/base';
import type { Storage } from '../../logical/storage.js';
import type { AesGcmBarrier } from '../barrier/index.js';
import { activateHa } from './activate.js';
import type { InvalidationTargets } from './cache-invalidation.js';
import type { HaOptions, LeaderAddresses } from './ha-campaign.js';
import { HaNode } from './ha-node.js';
import { type HaNodeReport, HaNodeTable, haNodeReport } from './ha-nodes.js';

/** What `sys/leader` and `sys/health` report about HA. */
export interface HaStatus {
  enabled: boolean;
  /** This server is the active one. */
  isSelf: boolean;
  /** Unsealed, waiting for the lock: serves no request. */
  isStandby: boolean;
  /** A standby that serves reads itself (`sys/health` 473 unless `perfstandbyok`). */
  isPerfStandby?: boolean;
  leader?: LeaderAddresses;
}

/** What HA asks of the core it runs in, once the barrier is open. */
export interface CoreHaHooks {
  /** Loads everything behind the barrier; a standby loads for reading only (no lease timers). */
  load(options: { isStandby: boolean }): Promise<void>;
  /** Everything is loaded: requests may come in. `isActive` when this server has just become the active one. */
  serve(options: { isActive: boolean }): void;
  /** Stops everything that runs or caches behind the barrier, leaving the barrier itself open. */
  unload(): Promise<void>;
  /** The caches loaded now, for the change feed. */
  targets(): InvalidationTargets;
}

/** The barrier as HA uses it: its HA role, its cache and keyring, and storage for the cluster's TLS material. */
type HaBarrier = Storage & Pick<AesGcmBarrier, 'isSealed' | 'setHaRole' | 'forgetAllCached' | 'reloadKeyring'>;

/**
 * A server's part in HA: standby or active, and what it reports about it. Without HA options
 * every question has the single-server answer (active, no index, nothing to wait for).
 */
export class CoreHa {
  readonly #options: HaOptions | undefined;
  readonly #deps: { barrier: HaBarrier; clock: Clock; logger: Logger; version: string };
  /** The campaign while unsealed with HA enabled. */
  #node: HaNode | undefined;
  /** The standbys that echoed to this server while it is active (`sys/ha-status`). */
  readonly nodes = new HaNodeTable();

  constructor(
    options: HaOptions | undefined,
    deps: { barrier: HaBarrier; clock: Clock; logger: Logger; version: string },
  ) {
    this.#options = options;
    this.#deps = deps;
  }

  get isEnabled(): boolean {
    return this.#options !== undefined;
  }

  /**
   * The key is proven (the barrier opened). A plain standby loads nothing behind the barrier
   * until it holds the lock (another server is writing, so any cache built now would go stale);
   * a performance standby loads everything read-only and keeps it right from the change feed.
   * Each load first reads the keyring as stored: another server may have rotated it or replaced
   * the root key since this one unsealed (a structural change reloads everything, and a standby
   * becoming active may not have seen the feed's last change).
   */
  async start(hooks: CoreHaHooks): Promise<void> {
    const options = this.#options;
    if (!options) return;
    const { barrier, clock, logger } = this.#deps;
    this.#node = new HaNode(
      options,
      {
        load: async ({ isStandby }) => {
          await barrier.reloadKeyring();
          await hooks.load({ isStandby });
          if (!isStandby) await activateHa(options, { barrier, nodes: this.nodes, nowMs: clock.now() });
          hooks.serve({ isActive: !isStandby });
        },
        unload: async () => {
          await hooks.unload();
          barrier.forgetAllCached();
        },
        targets: () => hooks.targets(),
        setBarrierRole: (role) => barrier.setHaRole(role),
      },
      { clock, logger },
    );
    await this.#node.start();
    logger.info('unsealed: standby until this server holds the HA lock');
  }

  /** Stops campaigning: the lock goes (so a standby takes over now) before the caches. */
  async stop(): Promise<void> {
    const node = this.#node;
    this.#node = undefined;
    await node?.stop();
  }

  /** Background work (lease expiration, rotations) runs here: without HA, or while holding the lock. */
  runsBackgroundWork(): boolean {
    return this.#node === undefined || this.#node.isActive;
  }

  /** Unsealed and not (yet) holding the HA lock: the active server is another one. */
  isStandby(): boolean {
    return this.#node !== undefined && !this.#node.isActive && !this.#deps.barrier.isSealed();
  }

  /** A standby that loads everything and serves reads itself (while loading, it makes them wait). */
  isPerformanceStandby(): boolean {
    return this.isStandby() && this.#node?.hasPerformanceStandby === true;
  }

  /** See `Core.consistencyIndex`: `undefined` without HA, or before any write. */
  index(): number | undefined {
    return this.#node?.index() || undefined;
  }

  /** See `Core.reachIndex`. */
  reach(revision: number, timeoutMs: number): true | Promise<boolean> {
    // `true` itself without HA: the request pipeline awaits nothing then.
    return this.#node === undefined || this.#node.reach(revision, timeoutMs);
  }

  async status(): Promise<HaStatus> {
    const node = this.#node;
    if (!node) return { enabled: this.isEnabled, isSelf: false, isStandby: false };
    return {
      enabled: true,
      isSelf: node.isActive,
      isStandby: this.isStandby(),
      isPerfStandby: this.isPerformanceStandby(),
      leader: await node.leader(),
    };
  }

  /** `sys/step-down`: the active server hands over to a standby; nothing to do without HA or on a standby. */
  stepDown(): Promise<void> {
    return this.#node?.stepDown() ?? Promise.resolve();
  }

  /** `sys/ha-status`: this server and the standbys that echoed to it. */
  report(): HaNodeReport[] {
    return haNodeReport(this.nodes, { ha: this.#options, version: this.#deps.version, clock: this.#deps.clock });
  }
}
