import { type Clock, type Logger, randomUuid } from '@ward/base';
import { InvalidRequestError, SealedError } from '../logical/errors.js';
import type { LogicalRequest } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import { getJson, putJson } from '../logical/storage.js';
import { AuditDevices } from './audit/index.js';
import { AesGcmBarrier, createView } from './barrier/index.js';
import {
  type ClusterInfo,
  type CoreDeps,
  type DefaultMount,
  type HaStatus,
  NO_METRICS,
  type SealStatus,
} from './core-types.js';
import { CorsSettings } from './cors-config.js';
import type { LeaseEntry } from './expiration/index.js';
import { ExpirationManager } from './expiration/index.js';
import { activateHa, HaNode, HaNodeTable, type HaOptions, haNodeReport, invalidationTargets } from './ha/index.js';
import { NamespaceServices } from './namespaces/namespace-services.js';
import { handleRequest, loginRenewal, withIdentityPolicies } from './request-handling.js';
import { TOKEN_AUTH_ENTRY } from './router/builtin-entries.js';
import { MountManager } from './router/mounts.js';
import { Router } from './router/router.js';
import { Scheduler } from './scheduler/index.js';
import { parseUnsealKey, RekeyOperation, RootGeneration, ShamirSeal, UnsealProgress } from './seal/index.js';
import { renewSecretLease, revokeSecretLease } from './secret-leases.js';
import { createSnapshotControls, type SnapshotControls } from './snapshots.js';
import { TokenStore, tokenLeaseId } from './tokens/index.js';
import { ResponseWrapping } from './wrapping/index.js';

export type { CoreDeps, DefaultMount, HaStatus, SealStatus } from './core-types.js';

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
  readonly #seal: ShamirSeal;
  /** Rekey of the seal's shares and root-token generation from them (`sys/rekey/*`, `sys/generate-root/*`). */
  readonly sealKeys: { rekey: RekeyOperation; rootGeneration: RootGeneration };
  readonly #progress: UnsealProgress;
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
  /** The HA campaign while unsealed with HA enabled. */
  #ha: HaNode | undefined;
  /** HA: the standbys that echoed to this server while it is active (`sys/ha-status`). */
  readonly haNodes = new HaNodeTable();

  constructor(readonly deps: CoreDeps) {
    const { physical, random, clock, logger } = deps;
    this.barrier = new AesGcmBarrier({ physical, random, clock });
    this.#seal = new ShamirSeal({ physical, random });
    this.sealKeys = {
      rekey: new RekeyOperation({ seal: this.#seal, random }),
      rootGeneration: new RootGeneration({
        seal: this.#seal,
        random,
        createRootToken: async () => (await this.tokens.createRoot()).token,
      }),
    };
    this.#progress = new UnsealProgress(random);
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
      isActive: () => this.#ha === undefined || this.#ha.isActive,
    });
    this.expiration = this.#createExpiration();
    this.tokens = this.#createTokenStore();
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
    });
  }

  /** A namespace's path ('' for root), or undefined for one that does not exist or while sealed. */
  #namespacePath(id: string): string | undefined {
    return id === 'root' ? '' : this.#services?.namespaces.byId(id)?.path;
  }

  #createExpiration(): ExpirationManager {
    const { random, clock, logger } = this.deps;
    return new ExpirationManager({
      storage: createView(this.barrier, 'sys/expire/'),
      clock,
      random,
      logger: logger.child({ component: 'expiration' }),
      // The token store is set up (its salt loaded) before leases are restored.
      accessorDigest: (accessor) => this.tokens.accessorDigest(accessor),
      revoker: {
        revoke: (lease) => this.#revokeLease(lease),
        renew: (lease, incrementSeconds) => renewSecretLease(this.router, lease, incrementSeconds),
      },
    });
  }

  // Token lifetimes are leases: the expiration manager revokes a token when its TTL ends,
  // and revoking a token revokes every lease it owns.
  #createTokenStore(): TokenStore {
    const { random, clock } = this.deps;
    return new TokenStore({
      storage: createView(this.barrier, 'sys/token/'),
      random,
      clock,
      hooks: {
        onRevoke: async (e) => {
          await this.expiration.revokeByToken(e.accessor);
          // What backends keep per token (its cubbyhole) goes with it.
          for (const route of this.router.routes()) await route.backend.tokenRevoked?.(e.accessor);
        },
        onIssue: async (e) => {
          await this.expiration.register({
            path: e.path,
            ttlSeconds: e.ttl,
            renewable: e.renewable,
            kind: 'token',
            tokenAccessor: e.accessor,
            idSuffix: e.hash,
          });
        },
        onRenew: (e) => this.expiration.renewToken(tokenLeaseId(e), e.ttl),
        // A login token renews under its auth method's current settings.
        loginRenewal: (e) => loginRenewal(this, e),
        entityForAlias: async (namespaceId, name) =>
          (await this.namespaceServices().identity(namespaceId).loginEntity(TOKEN_AUTH_ENTRY.accessor, name)).id,
      },
    });
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
    return (await this.#seal.config()) !== undefined && (await this.barrier.isInitialized());
  }

  /**
   * Initialises storage: root key, unseal-key shares and a root token. The server stays
   * sealed afterwards; the operator unseals it with the shares. `mounts` replaces the default
   * engines (dev mode mounts its own `secret/`).
   */
  async initialize(opts: { shares: number; threshold: number; mounts?: DefaultMount[] }) {
    if (await this.isInitialized()) throw new InvalidRequestError('Vault is already initialized');
    const { keyShares, rootKey } = await this.#seal.initialize({ shares: opts.shares, threshold: opts.threshold });
    await this.barrier.initialize(rootKey);
    await this.barrier.unseal(rootKey);
    try {
      await putJson(this.barrier, 'core/cluster', {
        cluster_name: `vault-cluster-${randomUuid(this.deps.random).slice(0, 8)}`,
        cluster_id: randomUuid(this.deps.random),
      } satisfies ClusterInfo);
      await this.tokens.setup();
      const { token } = await this.tokens.createRoot();
      await this.mounts.load(opts.mounts ?? this.deps.defaultMounts);
      return { keys: keyShares, rootToken: token };
    } finally {
      await this.seal();
    }
  }

  /** Adds one key share; unseals when the threshold is reached. */
  async submitUnsealKey(keyText: string): Promise<SealStatus> {
    const config = await this.#seal.config();
    if (!config || !(await this.isInitialized())) throw new InvalidRequestError('Vault is not initialized');
    if (!this.isSealed()) return this.sealStatus();
    this.#progress.submit(parseUnsealKey(keyText));
    if (this.#progress.progress < config.secret_threshold) return this.sealStatus();
    const shares = this.#progress.take();
    try {
      const rootKey = await this.#seal.recoverRootKey(shares);
      await this.unsealWithRootKey(rootKey);
      rootKey.fill(0);
    } finally {
      // Key material leaves memory as soon as it has served.
      for (const share of shares) share.fill(0);
    }
    return this.sealStatus();
  }

  resetUnsealProgress(): void {
    if (!this.isSealed()) throw new InvalidRequestError('vault is unsealed');
    this.#progress.reset();
  }

  /** Opens the barrier and starts everything that lives behind it. */
  async unsealWithRootKey(rootKey: Uint8Array): Promise<void> {
    await this.barrier.unseal(rootKey);
    // A standby reports the cluster it belongs to (sys/health, sys/seal-status) though it loads nothing else.
    this.#cluster = await getJson<ClusterInfo>(this.barrier, 'core/cluster');
    if (this.deps.ha) return this.#startStandby(this.deps.ha);
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

  /**
   * HA: the key is proven (the barrier opened). A plain standby loads nothing behind the barrier
   * until it holds the lock (another server is writing, so any cache built now would go stale);
   * a performance standby loads everything read-only and keeps it right from the change feed.
   */
  async #startStandby(ha: HaOptions): Promise<void> {
    const { clock, logger } = this.deps;
    this.#ha = new HaNode(
      ha,
      {
        load: async ({ isStandby }) => {
          await this.#loadBehindBarrier({ isStandby });
          if (!isStandby) {
            await activateHa(ha, { barrier: this.barrier, nodes: this.haNodes, nowMs: clock.now() });
            this.activeSinceMs = clock.now();
          }
          this.#isReady = true;
        },
        unload: async () => {
          await this.#stopBehindBarrier();
          this.barrier.forgetAllCached();
        },
        targets: () =>
          invalidationTargets({ barrier: this.barrier, tokens: this.tokens, services: () => this.#services }),
        setBarrierRole: (role) => this.barrier.setHaRole(role),
      },
      { clock, logger },
    );
    await this.#ha.start();
    logger.info('unsealed: standby until this server holds the HA lock');
  }

  /** Unsealed and not (yet) holding the HA lock: the active server is another one. */
  isStandby(): boolean {
    return this.#ha !== undefined && !this.#ha.isActive && !this.barrier.isSealed();
  }

  /** A standby that loads everything and serves reads itself (while loading, it makes them wait). */
  isPerformanceStandby(): boolean {
    return this.isStandby() && this.#ha?.hasPerformanceStandby === true;
  }

  /**
   * Read-your-writes: the storage revision a response names (`X-Vault-Index`). On the active
   * server, the revision its latest write reached; on a performance standby, the revision its
   * caches reflect. `undefined` without HA, or before any write.
   */
  consistencyIndex(): number | undefined {
    return this.#ha?.index() || undefined;
  }

  /**
   * Resolves true once this server can serve reads reflecting storage `revision` (at once unless
   * a standby; never on a plain standby), false after `timeoutMs`.
   */
  async reachIndex(revision: number, timeoutMs: number): Promise<boolean> {
    return this.#ha === undefined || this.#ha.reach(revision, timeoutMs);
  }

  async haStatus(): Promise<HaStatus> {
    const ha = this.#ha;
    if (!this.deps.ha || !ha) return { enabled: this.deps.ha !== undefined, isSelf: false, isStandby: false };
    return {
      enabled: true,
      isSelf: ha.isActive,
      isStandby: this.isStandby(),
      isPerfStandby: this.isPerformanceStandby(),
      leader: await ha.leader(),
    };
  }

  /** `sys/step-down`: the active server hands over to a standby; nothing to do without HA or on a standby. */
  stepDown(): Promise<void> {
    return this.#ha?.stepDown() ?? Promise.resolve();
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
        this.#progress.reset();
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
    const ha = this.#ha;
    this.#ha = undefined;
    if (ha) {
      // No request starts once sealing starts; the lock goes before the caches so a standby takes over now.
      this.#isReady = false;
      await ha.stop();
    }
    await this.#stopBehindBarrier();
    this.#cluster = undefined;
    this.barrier.seal();
    this.deps.logger.info('sealed');
  }

  /** Stops everything that runs or caches behind the barrier, leaving the barrier itself open. */
  async #stopBehindBarrier(): Promise<void> {
    this.#isReady = false;
    // Shares submitted toward a rekey or a root token do not outlive the unsealed state.
    this.sealKeys.rekey.cancel();
    this.sealKeys.rootGeneration.cancel();
    await this.expiration.stop();
    await this.audit.close();
    await this.mounts.stopAll();
    await this.scheduler.stopAll();
    this.router.clear();
    this.tokens.reset();
    this.#services = undefined;
  }

  async sealStatus(): Promise<SealStatus> {
    const config = await this.#seal.config();
    const sealed = this.isSealed() && !this.isStandby();
    return {
      type: 'shamir',
      initialized: config !== undefined,
      sealed,
      t: config?.secret_threshold ?? 0,
      n: config?.secret_shares ?? 0,
      progress: this.#progress.progress,
      nonce: this.#progress.nonce,
      ...(sealed ? {} : this.#cluster),
    };
  }

  /** Namespaces and what each has of its own; only while unsealed. */
  namespaceServices(): NamespaceServices {
    if (!this.#services) throw new SealedError();
    return this.#services;
  }

  /** Resolves a token or accessor to its policies, for `sys/capabilities*`. */
  tokenPolicyResolver() {
    return {
      // Entity and group policies count, as they do for the token's requests.
      policiesOfToken: async (token: string) => withIdentityPolicies(this, await this.tokens.lookup(token)),
      policiesOfAccessor: async (accessor: string) =>
        withIdentityPolicies(this, await this.tokens.lookupAccessor(accessor)),
    };
  }

  get version(): string {
    return this.deps.version;
  }

  /** Installs a new barrier key term; data written before stays readable. */
  async rotateKeyring(): Promise<void> {
    await this.barrier.rotate();
  }

  keyStatus() {
    return this.barrier.keyStatus();
  }

  #newNamespaceServices(): NamespaceServices {
    const { clock, random, logger, builtins, version } = this.deps;
    return new NamespaceServices({
      barrier: this.barrier,
      clock,
      random,
      logger,
      router: this.router,
      mounts: this.mounts,
      tokens: this.tokens,
      builtins,
      scheduler: this.scheduler,
      server: {
        version,
        seal: () => this.seal(),
        rotateKeyring: () => this.rotateKeyring(),
        keyStatus: () => this.keyStatus(),
        sealKeys: this.sealKeys,
        tokenPolicyResolver: () => this.tokenPolicyResolver(),
        expiration: this.expiration,
        audit: this.audit,
        cors: this.cors,
        metrics: this.deps.metrics ?? NO_METRICS,
        wrapping: this.wrapping,
        snapshots: this.snapshots,
        ha: { nodes: () => haNodeReport(this.haNodes, this.deps), stepDown: () => this.stepDown() },
      },
    });
  }

  /** A lease ended: a token lease revokes the token (and its children); a secret lease asks its backend. */
  async #revokeLease(lease: Readonly<LeaseEntry>): Promise<void> {
    if (lease.kind === 'token') {
      await this.tokens.revokeTree(lease.token_accessor);
      return;
    }
    await revokeSecretLease(this.router, lease);
  }

  cluster(): ClusterInfo | undefined {
    return this.#cluster;
  }

  handleRequest(req: LogicalRequest): Promise<LogicalResponse | undefined> {
    return handleRequest(this, req);
  }
}
