import type { MountInfo } from '@ward/secrets-client';
import type { MountEntry, TableName } from '../core/router/mount-table.js';
import { mountTtls, type SystemTtls } from '../core/router/system-ttls.js';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { NotFoundError } from '../logical/errors.js';

/** A mount as `sys/mounts` shows it. */
export function mountView(entry: MountEntry, version: string): MountInfo {
  return {
    type: entry.type,
    description: entry.description,
    accessor: entry.accessor,
    uuid: entry.uuid,
    local: entry.local,
    seal_wrap: entry.seal_wrap,
    external_entropy_access: entry.external_entropy_access,
    options: entry.options,
    plugin_version: '',
    running_plugin_version: `v${version}+builtin`,
    running_sha256: '',
    config: { ...entry.config },
  };
}

const mountFields = {
  path: field.path({ description: 'Where the engine is mounted.' }),
  type: field.string({ description: 'Engine type (`kv`, `kv-v2`, …).' }),
  description: field.string({ description: 'Human-readable description of the mount.' }),
  config: field.object({
    description: 'Mount settings: `default_lease_ttl`, `max_lease_ttl`, `force_no_cache`, `allowed_managed_keys`.',
  }),
  options: field.stringMap({ description: 'Engine options, e.g. `{"version":"2"}` for KV.' }),
  local: field.bool({ description: 'Not replicated (accepted for compatibility).' }),
  seal_wrap: field.bool({ description: 'Accepted for compatibility.' }),
};

/** Words that differ between the two tables' endpoints. */
const NOUN: Record<TableName, { plural: string; one: string }> = {
  mounts: { plural: 'secrets engines', one: 'secrets engine' },
  auth: { plural: 'auth methods', one: 'auth method' },
};

/** Built-in mounts first (`sys/` or `token/`), then the table's own. */
function allOf(sys: SystemCore, table: TableName): MountEntry[] {
  const builtin = table === 'mounts' ? sys.builtinMounts() : sys.builtinAuthMounts();
  return [...builtin, ...sys.mounts.entries(table)];
}

/** `sys/mounts` or `sys/auth`: list the table; keys are mount paths with a trailing slash. */
export function pathMountList(sys: SystemCore, table: TableName): PathDefinition {
  return definePath({
    pattern: table,
    fields: {},
    operations: {
      read: {
        summary: `List the mounted ${NOUN[table].plural}.`,
        handler: async () => ({
          data: Object.fromEntries(allOf(sys, table).map((e) => [e.path, mountView(e, sys.version)])),
          dataAtTopLevel: true,
        }),
      },
    },
    help: { synopsis: `List ${NOUN[table].plural}.`, description: 'Keys are mount paths with a trailing slash.' },
  });
}

/** `sys/mounts/:path` or `sys/auth/:path`: read, enable and disable one mount. */
export function pathMount(sys: SystemCore, table: TableName): PathDefinition {
  const find = (path: string) => allOf(sys, table).find((e) => e.path === `${path.replace(/\/+$/, '')}/`);
  return definePath({
    pattern: `${table}/*path`,
    fields: mountFields,
    operations: {
      read: {
        summary: 'Read one mount.',
        handler: async ({ data }) => {
          const entry = find(data.path);
          if (!entry) throw new NotFoundError('');
          return { data: mountView(entry, sys.version), dataAtTopLevel: true };
        },
      },
      update: {
        summary: `Enable a ${NOUN[table].one} at this path.`,
        handler: async ({ data }) => {
          await sys.mounts.mount(table, data.path, {
            type: data.type ?? '',
            description: data.description,
            config: leaseConfig(data.config),
            options: data.options ?? null,
            local: data.local,
            seal_wrap: data.seal_wrap,
          });
          return undefined;
        },
      },
      delete: {
        summary: `Disable the ${NOUN[table].one} at this path: its leases are revoked and its data erased.`,
        handler: async ({ data }) => {
          await sys.mounts.unmount(table, data.path);
          return undefined;
        },
      },
    },
    help: {
      synopsis: `Enable, read or disable a ${NOUN[table].one}.`,
      description: 'Disabling a mount revokes its leases and deletes everything stored under it.',
    },
  });
}

/** `config` of a mount request: TTLs as seconds or duration strings (`"system"` = inherit). */
export function leaseConfig(raw: Record<string, unknown> | undefined) {
  if (!raw) return undefined;
  const ttl = (v: unknown, name: string) =>
    v === undefined || v === 'system' || v === '' ? 0 : field.durationSeconds({ description: '' }).parse(v, name);
  return {
    default_lease_ttl: ttl(raw.default_lease_ttl, 'default_lease_ttl') ?? 0,
    max_lease_ttl: ttl(raw.max_lease_ttl, 'max_lease_ttl') ?? 0,
    force_no_cache: raw.force_no_cache === true || raw.force_no_cache === 'true',
    ...(raw.allowed_managed_keys === undefined
      ? {}
      : { allowed_managed_keys: MANAGED_KEYS_FIELD.parse(raw.allowed_managed_keys, 'allowed_managed_keys') }),
  };
}

const MANAGED_KEYS_FIELD = field.commaStrings({ description: 'Managed keys the mount may use.' });

/** Effective TTLs of a mount, as `tune` reads report them: an unset default is capped by the max. */
export function effectiveTtls(entry: MountEntry, system: SystemTtls) {
  const ttls = mountTtls(entry.config, system);
  return { default_lease_ttl: ttls.defaultTtlSeconds, max_lease_ttl: ttls.maxTtlSeconds };
}
