import { type Clock, type Logger, randomUuid } from '@ward/base';
import { InvalidRequestError, SealedError } from '../logical/errors.js';
import type { LogicalRequest } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import { getJson, putJson } from '../logical/storage.js';
import { AuditDevices } from './audit/index.js';
import { AesGcmBarrier } from './barrier/index.js';
import type { ClusterInfo, CoreDeps, DefaultMount, SealStatus } from './core-types.js';
import { CorsSettings } from './cors-config.js';
import type { ExpirationManager } from './expiration/index.js';
import { CoreHa, type CoreHaHooks, type HaStatus, invalidationTargets } from './ha/index.js';
import { NamespaceServices } from './namespaces/namespace-services.js';
import { handleRequest, isForwardedToActive } from './request-handling.js';
import { MountManager } from './router/mounts.js';
import { Router } from './router/router.js';
import { ESTABLISHED_SYSTEM_TTLS, type SystemTtls } from './router/system-ttls.js';
import { Scheduler } from './scheduler/index.js';
import {
  autoUnseal,
  type Migration,
  openBarrier,
  type RotateRootKey,
  SealKeys,
  sealStatusOf,
  submitUnsealShare,
} from './seal/index.js';
import { serverControls } from './server-controls.js';
import { createSnapshotControls, type SnapshotControls } from './snapshots.js';
import { createTokensAndLeases } from './token-leases.js';
import type { TokenStore } from './tokens/index.js';
import { ResponseWrapping } from './wrapping/index.js';

export type { CoreDeps, DefaultMount, SealStatus } from './core-types.js';
export type { HaStatus } from './ha/index.js';

/**
 * The server's lifecycle (initialise, unseal, seal) and the entry point of every
 * logical request. Owns the barrier, the router and mount tables, and the token store.
 */
export class Core {
  readonly barrier: AesGcmBarrier;
  readonly router = new Router();
  readonly mounts: MountManager;
  readonly tokens: TokenStore;
  readonly expiration: ExpirationManager;
  /** Periodic work of the mounts, on the injected clock. */
  readonly scheduler: Scheduler;
  /** The seal's key shares: unseal progress, rekey and root-token generation (`sys/rekey/*`, `sys/generate-root/*`). */
  readonly sealKeys: SealKeys;
  #cluster: ClusterInfo | undefined;
  /** Namespaces, their policies and built-in routes exist only while unsealed (they live behind the barrier). */
  #services: NamespaceServices | undefined;
  /** The audit devices: every request and its outcome is written to them before the client hears back. */
  readonly audit: AuditDevices;
  /** The CORS setting the HTTP layer applies to every request. */
  readonly cors: CorsSettings;
  /** Response wrapping: responses kept in the cubbyhole of single-use tokens. */
  readonly wrapping: ResponseWrapping;
  /** Whole-store snapshots: save, and restore with everything cached reloaded. */
  readonly snapshots: SnapshotControls;
  /** Set once unsealed: when this node became active (for `sys/leader`). */
  activeSinceMs = 0;
  /**
   * Set only once everything behind the barrier is loaded. The barrier opens first, and a request
   * let in between would meet a half-built core (no token store, no mounts) and get a wrong 403 or 404.
   */
  #isReady = false;
  /** Active or standby when several servers share the storage (single-server answers without HA). */
  readonly ha: CoreHa;

  constructor(readonly deps: CoreDeps) {
    const { physical, random, clock, logger } = deps;
    // Another server's new root key, when its stored copy is under a keyring term this one lacks.
    const sealedRootKey = () => this.sealKeys.storedRootKey();
    this.barrier = new AesGcmBarrier({ physical, random, clock, sealedRootKey });
    const createRootToken = async () => (await this.tokens.createRoot()).token;
    const rotateRootKey: RotateRootKey = (alsoWrite) => this.barrier.rotateRootKey(alsoWrite);
    this.sealKeys = new SealKeys({ physical, random, createRootToken, rotateRootKey, seal: deps.seal });
    this.ha = new CoreHa(deps.ha, { barrier: this.barrier, clock, logger, version: deps.version });
    this.snapshots = createSnapshotControls({
      physical,
      barrier: this.barrier,
      clock,
      reload: (replace) => this.#replaceStore(replace),
    });
    // Only the active server runs periodic work (a standby has no mount started either).
    this.scheduler = new Scheduler({
      clock,
      logger: logger.child({ component: 'scheduler' }),
      isActive: () => this.ha.runsBackgroundWork(),
    });
    const tokenParts = { barrier: this.barrier, router: this.router, random, clock, logger, core: this };
    ({ tokens: this.tokens, expiration: this.expiration } = createTokensAndLeases(tokenParts));
    this.audit = new AuditDevices({
      storage: this.barrier,
      clock,
      random,
      logger: logger.child({ component: 'audit' }),
      namespaceId: (path) => this.#services?.namespaces.byPath(path)?.id,
    });
    this.cors = new CorsSettings(this.barrier);
    this.wrapping = new ResponseWrapping({
      tokens: this.tokens,
      router: this.router,
      namespacePath: (id) => this.#namespacePath(id),
    });
    this.mounts = new MountManager({
      barrier: this.barrier,
      router: this.router,
      catalog: deps.catalog,
      clock,
      random,
      logger,
      scheduler: this.scheduler,
      revokeUnder: (mountPoint) => this.expiration.revokePrefix(mountPoint),
      namespacePath: (id) => this.#namespacePath(id),
      managedKeys: deps.managedKeys,
      systemTtls: deps.systemTtls,
    });
  }

  /** A namespace's path ('' for root), or undefined for one that does not exist or while sealed. */
  #namespacePath(id: string): string | undefined {
    return id === 'root' ? '' : this.#services?.namespaces.byId(id)?.path;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  /** True until an unseal has fully completed, and again from the first step of sealing. */
  isSealed(): boolean {
    return !this.#isReady;
  }

  /** Both halves must exist: a crash between writing the seal config and the keyring leaves neither usable. */
  async isInitialized(): Promise<boolean> {
    return (await this.sealKeys.config()) !== undefined && (await this.barrier.isInitialized());
  }

  /**
   * Initialises storage: root key, key shares and a root token. With Shamir the shares are
   * unseal shares and the server stays sealed until the operator unseals it with them; with an
   * auto seal they are recovery shares and the server unseals itself at once. `mounts`
   * replaces the default engines (dev mode mounts its own `secret/`).
   */
  async initialize(opts: {
    shares: number;
    threshold: number;
    recoveryShares?: number;
    recoveryThreshold?: number;
    mounts?: DefaultMount[];
  }) {
    if (await this.isInitialized()) throw new InvalidRequestError('Vault is already initialized');
    const { keyShares, recoveryShares, rootKey } = await this.sealKeys.initialize({
      shares: opts.shares,
      threshold: opts.threshold,
      recoveryShares: opts.recoveryShares ?? 0,
      recoveryThreshold: opts.recoveryThreshold ?? 0,
    });
    try {
      await this.barrier.initialize(rootKey);
      await this.barrier.unseal(rootKey);
    } finally {
      rootKey.fill(0);
    }
    let rootToken: string;
    try {
      await putJson(this.barrier, 'core/cluster', {
        // As established, a configured name is taken once, when the cluster is created.
        cluster_name: this.deps.clusterName || `vault-cluster-${randomUuid(this.deps.random).slice(0, 8)}`,
        cluster_id: randomUuid(this.deps.random),
      } satisfies ClusterInfo);
      await this.tokens.setup();
      rootToken = (await this.tokens.createRoot()).token;
      await this.mounts.load(opts.mounts ?? this.deps.defaultMounts);
    } finally {
      await this.seal();
    }
    await this.unsealWithStoredKeys();
    return { keys: keyShares, recoveryKeys: recoveryShares, rootToken };
  }

  /** Adds one key share; unseals at the threshold (`submitUnsealShare`; `migrate`: the old seal's shares). */
  submitUnsealKey(keyText: string, options: { migrate?: boolean } = {}): Promise<SealStatus> {
    return submitUnsealShare(this, keyText, options);
  }

  /** Auto-unseal with the key service, unless a seal migration is pending (`autoUnseal`). Answers whether it unsealed. */
  unsealWithStoredKeys(): Promise<boolean> {
    return autoUnseal(this);
  }

  resetUnsealProgress(): void {
    if (!this.isSealed()) throw new InvalidRequestError('vault is unsealed');
    this.sealKeys.resetProgress();
  }

  /** Opens the barrier (finishing a seal migration, if one is given) and starts everything that lives behind it. */
  async unsealWithRootKey(rootKey: Uint8Array, migration?: Migration): Promise<void> {
    await openBarrier(this.barrier, rootKey, { migration, logger: this.deps.logger, watcher: this.deps.sealWatcher });
    // A standby reports the cluster it belongs to (sys/health, sys/seal-status) though it loads nothing else.
    this.#cluster = await getJson<ClusterInfo>(this.barrier, 'core/cluster');
    if (this.ha.isEnabled) return this.ha.start(this.#haHooks());
    try {
      await this.#loadBehindBarrier();
    } catch (err) {
      // Half loaded is not unsealed: close the barrier again so the next unseal starts afresh.
      await this.seal();
      throw err;
    }
    this.activeSinceMs = this.deps.clock.now();
    this.#isReady = true;
    this.deps.logger.info('unsealed');
  }

  /** How HA loads and unloads this core as the server turns standby or active. */
  #haHooks(): CoreHaHooks {
    return {
      load: (options) => this.#loadBehindBarrier(options),
      serve: ({ isActive }) => {
        if (isActive) this.activeSinceMs = this.deps.clock.now();
        this.#isReady = true;
      },
      unload: () => this.#stopBehindBarrier(),
      targets: () =>
        invalidationTargets({ barrier: this.barrier, tokens: this.tokens, services: () => this.#services }),
    };
  }

  /**
   * Unsealed, yet not serving for a moment: an HA server changing role (stepping down, or
   * loading to become active). Requests meet `SealedError` then; the barrier itself is open.
   */
  isChangingHaRole(): boolean {
    return this.ha.isEnabled && this.isSealed() && !this.barrier.isSealed();
  }

  /** Unsealed and not (yet) holding the HA lock: the active server is another one. */
  isStandby(): boolean {
    return this.ha.isStandby();
  }

  /** A standby that loads everything and serves reads itself (while loading, it makes them wait). */
  isPerformanceStandby(): boolean {
    return this.ha.isPerformanceStandby();
  }

  /**
   * Read-your-writes: the storage revision a response names (`X-Vault-Index`). On the active
   * server, the revision its latest write reached; on a performance standby, the revision its
   * caches reflect. `undefined` without HA, or before any write.
   */
  consistencyIndex(): number | undefined {
    return this.ha.index();
  }

  /**
   * Resolves true once this server can serve reads reflecting storage `revision` (at once unless
   * a standby; never on a plain standby), false after `timeoutMs`. `true` itself when there is no HA.
   */
  reachIndex(revision: number, timeoutMs: number): true | Promise<boolean> {
    // Synchronous without HA: the request pipeline then awaits nothing here.
    return this.ha.reach(revision, timeoutMs);
  }

  haStatus(): Promise<HaStatus> {
    return this.ha.status();
  }

  /** `sys/step-down`: the active server hands over to a standby; nothing to do without HA or on a standby. */
  stepDown(): Promise<void> {
    return this.ha.stepDown();
  }

  /** A standby loads what serving reads needs: leases (and their timers) stay with the active server. */
  async #loadBehindBarrier(options: { isStandby?: boolean } = {}): Promise<void> {
    this.#cluster = await getJson<ClusterInfo>(this.barrier, 'core/cluster');
    // Requests pass the sealed check once the barrier is open: none may be served unrecorded.
    await this.audit.load();
    await this.tokens.setup();
    this.#services = this.#newNamespaceServices();
    await this.#services.load();
    await this.mounts.load(this.deps.defaultMounts);
    await this.#services.openAll();
    if (!options.isStandby) await this.expiration.restore();
    await this.cors.load();
  }

  /**
   * Swaps the whole store (a snapshot restore): everything cached from storage (policies, mounts,
   * tokens, leases, decrypted values) is dropped first and loaded again from the new store. A store
   * whose keyring this root key does not open (a forced restore from another server) leaves the
   * server sealed, waiting for that store's unseal keys.
   */
  async #replaceStore(replace: () => Promise<void>): Promise<void> {
    await this.#stopBehindBarrier();
    try {
      await this.barrier.reopenAfter(replace);
    } catch (err) {
      if (this.barrier.isSealed()) {
        this.#cluster = undefined;
        this.sealKeys.resetProgress();
        this.deps.logger.warn('sealed: the restored snapshot needs its own unseal keys');
        return;
      }
      await this.seal();
      throw err;
    }
    try {
      await this.#loadBehindBarrier();
    } catch (err) {
      await this.seal();
      throw err;
    }
    this.#isReady = true;
    this.deps.logger.info('snapshot restored');
  }

  /** Closes the barrier: every key leaves memory; requests answer 503 until unsealed. */
  async seal(): Promise<void> {
    if (this.barrier.isSealed()) return;
    // No request starts once sealing starts; the lock goes before the caches so a standby takes over now.
    this.#isReady = false;
    await this.ha.stop();
    await this.#stopBehindBarrier();
    this.#cluster = undefined;
    this.barrier.seal();
    this.deps.sealWatcher?.sealed();
    this.deps.logger.info('sealed');
  }

  /** Stops everything that runs or caches behind the barrier, leaving the barrier itself open. */
  async #stopBehindBarrier(): Promise<void> {
    this.#isReady = false;
    this.sealKeys.cancelOperations();
    await this.expiration.stop();
    await this.audit.close();
    await this.mounts.stopAll();
    await this.scheduler.stopAll();
    this.router.clear();
    this.tokens.reset();
    this.#services = undefined;
  }

  sealStatus(): Promise<SealStatus> {
    return sealStatusOf(this.sealKeys, { isSealed: this.isSealed() && !this.isStandby(), cluster: this.#cluster });
  }

  /** Namespaces and what each has of its own; only while unsealed. */
  namespaceServices(): NamespaceServices {
    if (!this.#services) throw new SealedError();
    return this.#services;
  }

  get version(): string {
    return this.deps.version;
  }

  get systemTtls(): SystemTtls {
    return this.deps.systemTtls ?? ESTABLISHED_SYSTEM_TTLS;
  }

  #newNamespaceServices(): NamespaceServices {
    const { clock, random, logger, builtins } = this.deps;
    const { barrier, router, mounts, tokens, scheduler } = this;
    const parts = { barrier, clock, random, logger, router, mounts, tokens, builtins, scheduler };
    return new NamespaceServices({ ...parts, server: serverControls(this) });
  }

  cluster(): ClusterInfo | undefined {
    return this.#cluster;
  }

  handleRequest(req: LogicalRequest): Promise<LogicalResponse | undefined> {
    return handleRequest(this, req);
  }

  /** The path (below namespace `namespace`) declares `forwardToActive`: only the active server serves it. */
  isForwardedToActive(namespace: string, path: string): boolean {
    return isForwardedToActive(this, namespace, path);
  }
}
