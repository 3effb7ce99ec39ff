import { InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { versionChange } from './version-tuning.js';

/** Lease TTL settings of a mount; 0 means "inherit the system default". */
export interface MountConfig {
  default_lease_ttl: number;
  max_lease_ttl: number;
  force_no_cache: boolean;
  /** `unauth` lists the mount to unauthenticated UI listings; `hidden` or absent does not. */
  listing_visibility?: '' | 'unauth' | 'hidden';
  /** Managed keys this mount may use (see `sys/managed-keys`). */
  allowed_managed_keys?: string[];
  /** Auth mounts only: the token type logins issue (`default-service`, `default-batch`, `service`, `batch`). */
  token_type?: string;
}

/** One mounted engine or auth method, as persisted in `core/mounts` or `core/auth`. */
export interface MountEntry {
  /** Mount path with trailing slash, relative to its table (`secret/`; `userpass/` for `auth/userpass/`). */
  path: string;
  type: string;
  description: string;
  accessor: string;
  /** Storage of the mount lives under `logical/<uuid>/` (engines) or `auth/<uuid>/` (auth methods). */
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  external_entropy_access: boolean;
  options: Record<string, string> | null;
  config: MountConfig;
  /** Namespace the mount lives in; absent means root. */
  namespace_id?: string;
}

export type TableName = 'mounts' | 'auth';

/** What `sys/mounts/:path/tune` and `sys/auth/:path/tune` may change. */
export interface MountTuning {
  description?: string;
  config?: Partial<MountConfig>;
  /**
   * Merged into the mount's options; the backend sees them when it next starts (unseal), at once
   * when the KV version rises (the backend restarts and upgrades its data).
   */
  options?: Record<string, string>;
}

/** Applies `change` to `entry` in place, after checking the result; the caller persists it. */
export function applyTuning(entry: MountEntry, change: MountTuning): void {
  const config = { ...entry.config, ...change.config };
  // Only two explicit values can contradict each other; an unset default is capped by the max.
  if (config.default_lease_ttl > 0 && config.max_lease_ttl > 0 && config.default_lease_ttl > config.max_lease_ttl) {
    throw new InvalidRequestError('given default lease TTL greater than given max lease TTL');
  }
  if (change.options) {
    versionChange(entry, change.options.version);
    entry.options = { ...entry.options, ...change.options };
  }
  entry.config = config;
  if (change.description !== undefined) entry.description = change.description;
}

export const TABLE_KEYS: Record<TableName, string> = { mounts: 'core/mounts', auth: 'core/auth' };
export const STORAGE_PREFIX: Record<TableName, string> = { mounts: 'logical/', auth: 'auth/' };

/** Prefixes no engine may be mounted at or under. */
const PROTECTED_PREFIXES = ['sys/', 'audit/', 'auth/', 'cubbyhole/', 'identity/'];

/** A mount path with exactly one trailing slash and no leading slash. */
export function normalizeMountPath(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') throw new InvalidRequestError('mount path cannot be empty');
  if (trimmed.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new InvalidRequestError(`invalid mount path "${path}"`);
  }
  return `${trimmed}/`;
}

/** Refuses a new engine mount that would overlap an existing one or a protected prefix. */
export function checkNewMount(table: readonly MountEntry[], path: string, name: TableName): void {
  if (name === 'mounts' && PROTECTED_PREFIXES.some((p) => path.startsWith(p))) {
    throw new InvalidRequestError(`cannot mount "${path}"`);
  }
  // The token store is the one auth method every server has, at `auth/token/`.
  if (name === 'auth' && path.startsWith('token/')) throw new InvalidRequestError(`path is already in use at token/`);
  for (const entry of table) {
    if (entry.path === path) throw new InvalidRequestError(`path is already in use at ${entry.path}`);
    if (path.startsWith(entry.path) || entry.path.startsWith(path)) {
      throw new InvalidRequestError(`path is already in use at ${entry.path}`);
    }
  }
}

export async function loadTable(storage: Storage, name: TableName): Promise<MountEntry[] | undefined> {
  return (await getJson<{ entries: MountEntry[] }>(storage, TABLE_KEYS[name]))?.entries;
}

export async function saveTable(storage: Storage, name: TableName, entries: readonly MountEntry[]): Promise<void> {
  await putJson(storage, TABLE_KEYS[name], { entries });
}
