import { createHash } from 'node:crypto';
import { type Clock, type Logger, type Random, randomUuid } from '@ward/base';
import type { Backend, BackendContext } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { createView } from '../barrier/index.js';
import {
  checkNewMount,
  loadTable,
  type MountConfig,
  type MountEntry,
  normalizeMountPath,
  STORAGE_PREFIX,
  saveTable,
  type TableName,
} from './mount-table.js';
import type { Router } from './router.js';

/** Builds the backend of a mount type; the catalog is the only place that knows every engine. */
export type BackendFactory = (ctx: BackendContext) => Backend | Promise<Backend>;

/** System-wide lease TTLs (768h), used where a mount sets 0. */
export const SYSTEM_DEFAULT_LEASE_TTL_SECONDS = 2_764_800;
export const SYSTEM_MAX_LEASE_TTL_SECONDS = 2_764_800;

export interface MountInput {
  type: string;
  description?: string;
  config?: Partial<MountConfig>;
  options?: Record<string, string> | null;
  local?: boolean;
  seal_wrap?: boolean;
}

/** Types spelled with their version: `kv-v2` is `kv` with `options.version = "2"`. */
const TYPE_ALIASES: Record<string, { type: string; version: string }> = {
  'kv-v1': { type: 'kv', version: '1' },
  'kv-v2': { type: 'kv', version: '2' },
};

/** Mounts and unmounts engines and auth methods, persisting both tables behind the barrier. */
export class MountManager {
  readonly #tables: Record<TableName, MountEntry[]> = { mounts: [], auth: [] };

  constructor(
    private readonly deps: {
      barrier: Storage;
      router: Router;
      catalog: Record<string, BackendFactory>;
      clock: Clock;
      random: Random;
      logger: Logger;
      /** Revokes every lease (and, for auth mounts, every token) issued under a mount point. */
      revokeUnder: (mountPoint: string) => Promise<void>;
    },
  ) {}

  entries(table: TableName): readonly MountEntry[] {
    return this.#tables[table];
  }

  /** Loads both tables and starts every backend; on a fresh barrier, mounts `defaults` first. */
  async load(defaults: Array<{ path: string; input: MountInput }>): Promise<void> {
    for (const table of ['mounts', 'auth'] as const) {
      const stored = await loadTable(this.deps.barrier, table);
      this.#tables[table] = stored ?? [];
      for (const entry of this.#tables[table]) await this.#start(table, entry);
      if (stored === undefined) {
        if (table === 'mounts') for (const d of defaults) await this.mount('mounts', d.path, d.input);
        else await saveTable(this.deps.barrier, table, []);
      }
    }
  }

  async mount(table: TableName, rawPath: string, input: MountInput): Promise<MountEntry> {
    const path = normalizeMountPath(rawPath);
    checkNewMount(this.#tables[table], path, table);
    const entry = this.#newEntry(table, path, input);
    await this.#start(table, entry);
    this.#tables[table] = [...this.#tables[table], entry];
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    this.deps.logger.info('mounted', { table, path, type: entry.type });
    return entry;
  }

  /** Removes the mount and erases its storage; a missing mount is not an error. */
  async unmount(table: TableName, rawPath: string): Promise<void> {
    const path = normalizeMountPath(rawPath);
    const entry = this.#tables[table].find((e) => e.path === path);
    if (!entry) return;
    // Leases first, while the backend is still mounted to revoke them; a failure keeps the mount.
    await this.deps.revokeUnder(mountPoint(table, path));
    const route = this.deps.router.remove(mountPoint(table, path));
    this.#tables[table] = this.#tables[table].filter((e) => e !== entry);
    await saveTable(this.deps.barrier, table, this.#tables[table]);
    await route?.backend.cleanup?.();
    await deleteTree(this.deps.barrier, `${STORAGE_PREFIX[table]}${entry.uuid}/`);
    this.deps.logger.info('unmounted', { table, path });
  }

  /** Changes a mount's description and lease settings, persisting the table. */
  async tune(table: TableName, rawPath: string, change: { description?: string; config?: Partial<MountConfig> }) {
    const path = normalizeMountPath(rawPath);
    const entry = this.#tables[table].find((e) => e.path === path);
    if (!entry) throw new InvalidRequestError(`no mount at ${path}`);
    const config = { ...entry.config, ...change.config };
    const effectiveMax = config.max_lease_ttl || SYSTEM_MAX_LEASE_TTL_SECONDS;
    if ((config.default_lease_ttl || SYSTEM_DEFAULT_LEASE_TTL_SECONDS) > effectiveMax) {
      throw new InvalidRequestError('given default lease TTL greater than given max lease TTL');
    }
    // Entries are shared with the running backend's system view, so change them in place.
    entry.config = config;
    if (change.description !== undefined) entry.description = change.description;
    await saveTable(this.deps.barrier, table, this.#tables[table]);
  }

  /** Stops every backend (on seal); the tables stay on storage. */
  async stopAll(): Promise<void> {
    for (const table of ['mounts', 'auth'] as const) {
      for (const entry of this.#tables[table]) {
        await this.deps.router.remove(mountPoint(table, entry.path))?.backend.cleanup?.();
      }
      this.#tables[table] = [];
    }
  }

  #newEntry(table: TableName, path: string, input: MountInput): MountEntry {
    const alias = TYPE_ALIASES[input.type];
    const type = alias?.type ?? input.type;
    if (!type) throw new InvalidRequestError('backend type must be specified as a string');
    if (!this.deps.catalog[type]) throw new InvalidRequestError(`plugin not found in the catalog: ${input.type}`);
    const options = { ...(input.options ?? {}) };
    if (alias) options.version = alias.version;
    if (options.version !== undefined && type !== 'kv') {
      throw new InvalidRequestError(`secrets engine "${type}" does not allow setting a version`);
    }
    const config = { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, ...input.config };
    if (config.max_lease_ttl > 0 && config.default_lease_ttl > config.max_lease_ttl) {
      throw new InvalidRequestError('given default lease TTL greater than given max lease TTL');
    }
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

  async #start(table: TableName, entry: MountEntry): Promise<void> {
    const factory = this.deps.catalog[entry.type];
    if (!factory) throw new Error(`mount ${entry.path}: unknown type ${entry.type}`);
    const storage = createView(this.deps.barrier, `${STORAGE_PREFIX[table]}${entry.uuid}/`);
    const backend = await factory({
      storage,
      logger: this.deps.logger.child({ mount: entry.path }),
      clock: this.deps.clock,
      random: this.deps.random,
      options: entry.options ?? {},
      system: {
        defaultLeaseTtlSeconds: () => entry.config.default_lease_ttl || SYSTEM_DEFAULT_LEASE_TTL_SECONDS,
        maxLeaseTtlSeconds: () => entry.config.max_lease_ttl || SYSTEM_MAX_LEASE_TTL_SECONDS,
      },
    });
    this.deps.router.add({ mountPoint: mountPoint(table, entry.path), entry, backend });
  }
}

/** Where requests reach a mount: engines at their path, auth methods under `auth/`. */
export function mountPoint(table: TableName, path: string): string {
  return table === 'auth' ? `auth/${path}` : path;
}

/** Deletes every key below `prefix`, depth first. */
async function deleteTree(storage: Storage, prefix: string): Promise<void> {
  for (const child of await storage.list(prefix)) {
    if (child.endsWith('/')) await deleteTree(storage, `${prefix}${child}`);
    else await storage.delete(`${prefix}${child}`);
  }
}
