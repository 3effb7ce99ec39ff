import type { MountConfig, MountEntry, TableName } from '../core/router/mount-table.js';
import type { SystemTtls } from '../core/router/system-ttls.js';
import type { SystemCore } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { effectiveTtls } from './path-mounts.js';

const VISIBILITY = new Set(['', 'unauth', 'hidden']);
const TOKEN_TYPES = new Set(['default-service', 'default-batch', 'service', 'batch']);

/** What `tune` reads show: effective TTLs (system defaults substituted) and the tunable settings that are set. */
function tuneView(entry: MountEntry, table: TableName, system: SystemTtls) {
  const c = entry.config;
  return {
    description: entry.description,
    ...effectiveTtls(entry, system),
    force_no_cache: c.force_no_cache,
    options: entry.options,
    ...(c.listing_visibility ? { listing_visibility: c.listing_visibility } : {}),
    ...(c.allowed_managed_keys?.length ? { allowed_managed_keys: c.allowed_managed_keys } : {}),
    ...(table === 'auth' ? { token_type: c.token_type ?? 'default-service' } : {}),
  };
}

/** `sys/mounts/:path/tune` and `sys/auth/:path/tune`: read and change a mount's settings. */
export function pathTune(sys: SystemCore, table: TableName): PathDefinition {
  // The built-in token method is tuned like any auth method; `sys/` is not tunable.
  const builtin = () => (table === 'auth' ? sys.builtinAuthMounts() : []);
  const find = (path: string) => {
    const wanted = `${path.replace(/\/+$/, '')}/`;
    const entry = [...builtin(), ...sys.mounts.entries(table)].find((e) => e.path === wanted);
    if (!entry) throw new InvalidRequestError(`cannot fetch sysview for path "${path}"`);
    return entry;
  };
  return definePath({
    pattern: `${table}/*path/tune`,
    fields: {
      path: field.path({ description: 'Mount path.' }),
      default_lease_ttl: field.string({ description: 'Default lease TTL (seconds, duration, or `system`).' }),
      max_lease_ttl: field.string({ description: 'Maximum lease TTL (seconds, duration, or `system`).' }),
      description: field.string({ description: 'New description.' }),
      listing_visibility: field.string({
        description: '`unauth` to list the mount without a token; `hidden` or empty.',
      }),
      allowed_managed_keys: field.commaStrings({ description: 'Managed keys the mount may use.' }),
      token_type: field.string({ description: 'Auth mounts: token type of logins.' }),
      options: field.stringMap({
        description: 'Engine options to merge; a KV `version` of 2 on a version 1 mount upgrades it in place.',
      }),
    },
    operations: {
      read: {
        summary: 'Read the effective settings of a mount.',
        handler: async ({ data }) => ({ data: tuneView(find(data.path), table, sys.systemTtls), dataAtTopLevel: true }),
      },
      update: {
        summary: 'Change the settings of a mount.',
        handler: async ({ data, supplied }) => {
          const isTokenMount = builtin().includes(find(data.path));
          const config: Partial<MountConfig> = {};
          const ttl = (v: string | undefined, name: string) =>
            v === undefined
              ? undefined
              : v === 'system'
                ? 0
                : field.durationSeconds({ description: '' }).parse(v, name);
          const def = ttl(data.default_lease_ttl, 'default_lease_ttl');
          const max = ttl(data.max_lease_ttl, 'max_lease_ttl');
          if (def !== undefined) config.default_lease_ttl = def;
          if (max !== undefined) config.max_lease_ttl = max;
          if (supplied.has('listing_visibility')) {
            if (!VISIBILITY.has(data.listing_visibility ?? ''))
              throw new InvalidRequestError('invalid listing_visibility');
            config.listing_visibility = data.listing_visibility as MountConfig['listing_visibility'];
          }
          if (supplied.has('allowed_managed_keys')) config.allowed_managed_keys = data.allowed_managed_keys ?? [];
          if (supplied.has('token_type')) {
            if (table !== 'auth') throw new InvalidRequestError('token_type can only be tuned on auth mounts');
            if (isTokenMount) {
              throw new InvalidRequestError("'token_type' cannot be set for 'token' or 'ns_token' auth mounts");
            }
            if (!TOKEN_TYPES.has(data.token_type ?? ''))
              throw new InvalidRequestError(`invalid token_type "${data.token_type}"`);
            config.token_type = data.token_type;
          }
          const change = { description: data.description, config, options: data.options };
          if (isTokenMount) {
            await sys.tuneTokenMount(change);
            return undefined;
          }
          const warnings = await sys.mounts.tune(table, data.path, change);
          return warnings.length > 0 ? { warnings } : undefined;
        },
      },
    },
    help: {
      synopsis: 'Tune a mount.',
      description: 'TTLs of 0 or `system` inherit the system defaults (768h); reads show effective values.',
    },
  });
}
