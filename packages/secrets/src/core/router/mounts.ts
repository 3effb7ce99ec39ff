import { createHash } from 'node:crypto';
import { type Clock, type Logger, type Random, randomUuid } from '@ward/base';
import type { Backend, BackendContext } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { deleteTree, type Storage } from '../../logical/storage.js';
import { createView } from '../barrier/index.js';
import { PasswordPolicyStore, passwordPolicyPrefix } from '../password-policies/index.js';
import type { Scheduler, TaskGroup } from '../scheduler/index.js';
import { type ManagedKeyLookup, managedKeyAccess } from './managed-key-access.js';
import {
  applyTuning,
  checkNewMount,
  loadTable,
  type MountConfig,
  type MountEntry,
  type MountTuning,
  normalizeMountPath,
  STORAGE_PREFIX,
  saveTable,
  type TableName,
} from './mount-table.js';
import type { Router } from './router.js';
import { ESTABLISHED_SYSTEM_TTLS, mountTtls, type SystemTtls } from './system-ttls.js';
import { versionChange } from './version-tuning.js';

/** Factories by type, per table: a secrets engine cannot be mounted as an auth method, nor the reverse. */
export type BackendCatalog = Record<TableName, ReadonlyMap<string, BackendFactory>>;

/** Builds the backend of a mount type; the catalog is the only place that knows every engine. */
export type BackendFactory = (ctx: BackendContext) => Backend | Promise<Backend>;

export interface MountInput {
  type: string;
  description?: string;
  config?: Partial<MountConfig>;
  options?: Record<string, string> | null;
  local?: boolean;
  seal_wrap?: boolean;
}

/**
 * Types spelled with their version: `kv-v2` is `kv` with `options.version = "2"`; `generic`
 * is the legacy name of KV version 1.
 */
const TYPE_ALIASES = new Map([
  ['generic', { type: 'kv', version: '1' }],
  ['kv-v1', { type: 'kv', version: '1' }],
  ['kv-v2', { type: 'kv', version: '2' }],
]);

/** `MountManager`'s operations for one namespace. */
export interface NamespaceMounts {
  entries(table: TableName): readonly MountEntry[];
  mount(table: TableName, path: string, input: MountInput): Promise<MountEntry>;
  unmount(table: TableName, path: string): Promise<void>;
  /** Resolves with the warnings the tune answers with. */
  tune(table: TableName, path: string, change: MountTuning): Promise<string[]>;
  move(table: TableName, from: string, to: string): Promise<void>;
}

/**
 * Mounts and unmounts engines and auth methods of every namespace, persisting both tables
 * behind the barrier (one table each, entries tagged with their namespace).
 */
export class MountManager {
  readonly #tables: Record<TableName, MountEntry[]> = { mounts: [], auth: [] };
  /** Each started mount's periodic tasks, by mount uuid (a remount keeps them running). */
  readonly #periodic = new Map<string, TaskGroup>();

  constructor(
    private readonly deps: {
      barrier: Storage;
      router: Router;
      catalog: BackendCatalog;
      clock: Clock;
      random: Random;
      logger: Logger;
      /** Runs each mount's periodic tasks while it is mounted and the server unsealed. */
      scheduler: Pick<Scheduler, 'start'>;
      /** Revokes every lease (and, for auth mounts, every token) issued under a mount point. */
      revokeUnder: (mountPoint: string) => Promise<void>;
      /** Path of a namespace by id (`''` for root); `undefined` when it no longer exists. */
      namespacePath: (id: string) => string | undefined;
      /** Finds the managed keys mounts sign with (`sys/managed-keys`). */
      managedKeys?: ManagedKeyLookup;
      /** `default_lease_ttl` and `max_lease_ttl` of the configuration; the established 768h without. */
      systemTtls?: SystemTtls;
    },
  ) {}

  get #systemTtls(): SystemTtls {
    return this.deps.systemTtls ?? ESTABLISHED_SYSTEM_TTLS;
  }

  /** As established: a mount's own default, with no max of its own, may not exceed the system max. */
  #checkAgainstSystemMax(config: { default_lease_ttl: number; max_lease_ttl: number }): void {
    if (config.max_lease_ttl === 0 && config.default_lease_ttl > this.#systemTtls.maxLeaseTtlSeconds) {
      throw new InvalidRequestError('given default lease TTL greater than system max lease TTL');
    }
  }

  /** The mounts of one namespace (root by default). */
  entries(table: TableName, namespaceId = 'root'): readonly MountEntry[] {
    return this.#tables[table].filter((e) => (e.namespace_id ?? 'root') === namespaceId);
  }

  /** The same operations, confined to one namespace (what a namespace's `sys/` may touch). */
  forNamespace(namespaceId: string): NamespaceMounts {
    return {
      entries: (table) => this.entries(table, namespaceId),
      mount: (table, path, input) => this.mount(table, path, input, namespaceId),
      unmount: (table, path) => this.unmount(table, path, namespaceId),
      tune: (table, path, change) => this.tune(table, path, change, namespaceId),
      move: (table, from, to) => this.move(table, from, to, namespaceId),
    };
  }

  /**
   * Moves a mount to another path of the same namespace. Its storage is keyed by uuid and
   * stays put; leases issued under the old path are revoked, as their ids name it.
   */
  async move(table: TableName, rawFrom: string, rawTo: string, namespaceId = 'root'): Promise<void> {
    const from = normalizeMountPath(rawFrom);
    const to = normalizeMountPath(rawTo);
    const entry = this.entries(table, namespaceId).find((e) => e.path === from);
    if (!entry) throw new InvalidRequestError(`no matching mount at "${from}"`);
    checkNewMount(
      this.entries(table, namespaceId).filter((e) => e !== entry),
      to,
      table,
    );
    const oldPoint = this.#mountPoint(table, entry);
    await this.deps.revokeUnder(oldPoint);
    const route = this.deps.router.remove(oldPoint);
    entry.path = to;
    if (route) this.deps.router.add({ ...route, mountPoint: this.#mountPoint(table, entry) });
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    this.deps.logger.info('remounted', { table, from, to });
  }

  /** Unmounts everything of a namespace (when it is deleted). */
  async unmountNamespace(namespaceId: string): Promise<void> {
    for (const table of ['mounts', 'auth'] as const) {
      for (const entry of this.entries(table, namespaceId)) await this.unmount(table, entry.path, namespaceId);
    }
  }

  /** Loads both tables and starts every backend; on a fresh barrier, mounts `defaults` first. */
  async load(defaults: Array<{ path: string; input: MountInput }>): Promise<void> {
    for (const table of ['mounts', 'auth'] as const) {
      const stored = await loadTable(this.deps.barrier, table);
      this.#tables[table] = stored ?? [];
      for (const entry of this.#tables[table]) await this.#startStored(table, entry);
      if (stored === undefined) {
        if (table === 'mounts') for (const d of defaults) await this.mount('mounts', d.path, d.input);
        else await saveTable(this.deps.barrier, table, []);
      }
    }
  }

  async mount(table: TableName, rawPath: string, input: MountInput, namespaceId = 'root'): Promise<MountEntry> {
    const path = normalizeMountPath(rawPath);
    checkNewMount(this.entries(table, namespaceId), path, table);
    const entry = this.#newEntry(table, path, input);
    if (namespaceId !== 'root') entry.namespace_id = namespaceId;
    await this.#start(table, entry);
    this.#tables[table] = [...this.#tables[table], entry];
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    this.deps.logger.info('mounted', { table, path, type: entry.type });
    return entry;
  }

  /** Removes the mount and erases its storage; a missing mount is not an error. */
  async unmount(table: TableName, rawPath: string, namespaceId = 'root'): Promise<void> {
    const path = normalizeMountPath(rawPath);
    const entry = this.entries(table, namespaceId).find((e) => e.path === path);
    if (!entry) return;
    const point = this.#mountPoint(table, entry);
    // Leases first, while the backend is still mounted to revoke them; a failure keeps the mount.
    await this.deps.revokeUnder(point);
    const route = this.deps.router.remove(point);
    this.#tables[table] = this.#tables[table].filter((e) => e !== entry);
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    await this.#stopPeriodic(entry);
    await route?.backend.cleanup?.();
    await deleteTree(this.deps.barrier, `${STORAGE_PREFIX[table]}${entry.uuid}/`);
    this.deps.logger.info('unmounted', { table, path });
  }

  /**
   * Changes a mount's description, lease settings and options, persisting the table; returns the
   * warnings the tune answers with. A KV version upgrade restarts the backend, which upgrades its
   * data (and resumes that on every start until done, so a crash loses nothing).
   */
  async tune(table: TableName, rawPath: string, change: MountTuning, namespaceId = 'root'): Promise<string[]> {
    const path = normalizeMountPath(rawPath);
    const entry = this.entries(table, namespaceId).find((e) => e.path === path);
    if (!entry) throw new InvalidRequestError(`no mount at ${path}`);
    const upgrade = versionChange(entry, change.options?.version);
    if (upgrade && change.options) {
      const backend = this.deps.router.get(this.#mountPoint(table, entry))?.backend;
      await backend?.checkOptionsChange?.({ ...entry.options, ...change.options });
    }
    this.#checkAgainstSystemMax({ ...entry.config, ...change.config });
    // Entries are shared with the running backend's system view, so they are changed in place.
    applyTuning(entry, change);
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    if (!upgrade) return [];
    this.deps.logger.info('mount version raised; restarting its backend', {
      table,
      path,
      from: upgrade.from,
      to: upgrade.to,
    });
    await this.#restart(table, entry);
    return [upgrade.warning];
  }

  /** Serves a mount from a new backend built from its (changed) entry; the old one is cleaned up after. */
  async #restart(table: TableName, entry: MountEntry): Promise<void> {
    const old = this.deps.router.get(this.#mountPoint(table, entry));
    await this.#stopPeriodic(entry);
    await this.#start(table, entry);
    await old?.backend.cleanup?.();
  }

  /** Stops every backend (on seal); the tables stay on storage. */
  async stopAll(): Promise<void> {
    for (const table of ['mounts', 'auth'] as const) {
      for (const entry of this.#tables[table]) {
        await this.#stopPeriodic(entry);
        await this.deps.router.remove(this.#mountPoint(table, entry))?.backend.cleanup?.();
      }
      this.#tables[table] = [];
    }
  }

  #newEntry(table: TableName, path: string, input: MountInput): MountEntry {
    const alias = TYPE_ALIASES.get(input.type);
    const type = alias?.type ?? input.type;
    if (!type) throw new InvalidRequestError('backend type must be specified as a string');
    if (!this.deps.catalog[table].has(type))
      throw new InvalidRequestError(`plugin not found in the catalog: ${input.type}`);
    const options = { ...(input.options ?? {}) };
    if (alias) options.version = alias.version;
    if (options.version !== undefined && type !== 'kv') {
      throw new InvalidRequestError(`secrets engine "${type}" does not allow setting a version`);
    }
    const config = { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, ...input.config };
    if (config.max_lease_ttl > 0 && config.default_lease_ttl > config.max_lease_ttl) {
      throw new InvalidRequestError('given default lease TTL greater than given max lease TTL');
    }
    this.#checkAgainstSystemMax(config);
    const uuid = randomUuid(this.deps.random);
    return {
      path,
      type,
      description: input.description ?? '',
      accessor: `${table === 'auth' ? 'auth_' : ''}${type}_${createHash('sha256').update(uuid).digest('hex').slice(0, 8)}`,
      uuid,
      local: input.local ?? false,
      seal_wrap: input.seal_wrap ?? false,
      external_entropy_access: false,
      options: Object.keys(options).length > 0 ? options : null,
      config,
    };
  }

  /**
   * Starts a mount read from storage. One that cannot start (its type no longer in the catalog,
   * such as one an older server let in) must not keep the whole server sealed: it is logged and
   * stays in the table, unserved, for the operator to unmount.
   */
  async #startStored(table: TableName, entry: MountEntry): Promise<void> {
    try {
      await this.#start(table, entry);
    } catch (err) {
      this.deps.logger.error('mount failed to start and is not served', {
        table,
        path: entry.path,
        type: entry.type,
        err,
      });
    }
  }

  async #start(table: TableName, entry: MountEntry): Promise<void> {
    const factory = this.deps.catalog[table].get(entry.type);
    if (!factory) throw new Error(`mount ${entry.path}: unknown type ${entry.type}`);
    const storagePrefix = `${STORAGE_PREFIX[table]}${entry.uuid}/`;
    const storage = createView(this.deps.barrier, storagePrefix);
    const passwordPolicies = new PasswordPolicyStore(
      createView(this.deps.barrier, passwordPolicyPrefix(entry.namespace_id ?? 'root')),
      this.deps.random,
    );
    const backend = await factory({
      storage,
      logger: this.deps.logger.child({ mount: entry.path }),
      clock: this.deps.clock,
      random: this.deps.random,
      options: entry.options ?? {},
      system: {
        defaultLeaseTtlSeconds: () => mountTtls(entry.config, this.#systemTtls).defaultTtlSeconds,
        maxLeaseTtlSeconds: () => mountTtls(entry.config, this.#systemTtls).maxTtlSeconds,
        generatePasswordFromPolicy: (name) => passwordPolicies.generate(name),
        managedKey: managedKeyAccess(this.deps.managedKeys, entry),
      },
    });
    const point = this.#mountPoint(table, entry);
    this.deps.router.add({ mountPoint: point, entry, backend, table, storagePrefix });
    if (backend.periodic.length > 0) this.#periodic.set(entry.uuid, this.deps.scheduler.start(point, backend.periodic));
  }

  async #stopPeriodic(entry: MountEntry): Promise<void> {
    await this.#periodic.get(entry.uuid)?.stop();
    this.#periodic.delete(entry.uuid);
  }

  /** Where requests reach a mount: below its namespace's path. */
  #mountPoint(table: TableName, entry: MountEntry): string {
    const nsPath = this.deps.namespacePath(entry.namespace_id ?? 'root');
    if (nsPath === undefined) throw new Error(`mount ${entry.path}: namespace ${entry.namespace_id} does not exist`);
    return `${nsPath}${mountPoint(table, entry.path)}`;
  }
}

/** Where requests reach a mount: engines at their path, auth methods under `auth/`. */
export function mountPoint(table: TableName, path: string): string {
  return table === 'auth' ? `auth/${path}` : path;
}
