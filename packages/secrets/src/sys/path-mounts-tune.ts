import { definePath, field } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { effectiveTtls } from './path-mounts.js';
import type { SystemCore } from './system-core.js';

/** `sys/mounts/:path/tune`: read and change a mount's lease settings and description. */
export function pathMountTune(sys: SystemCore) {
  return definePath({
    pattern: 'mounts/*path/tune',
    fields: {
      path: field.path({ description: 'Mount path.' }),
      default_lease_ttl: field.string({ description: 'Default lease TTL (seconds, duration, or `system`).' }),
      max_lease_ttl: field.string({ description: 'Maximum lease TTL (seconds, duration, or `system`).' }),
      description: field.string({ description: 'New description.' }),
    },
    operations: {
      read: {
        summary: 'Read the effective settings of a mount.',
        handler: async ({ data }) => {
          const entry = sys.mounts.entries('mounts').find((e) => e.path === `${data.path.replace(/\/+$/, '')}/`);
          if (!entry) throw new InvalidRequestError(`cannot fetch sysview for path "${data.path}"`);
          return {
            data: {
              description: entry.description,
              ...effectiveTtls(entry),
              force_no_cache: entry.config.force_no_cache,
              options: entry.options,
            },
            dataAtTopLevel: true,
          };
        },
      },
      update: {
        summary: 'Change the settings of a mount.',
        handler: async ({ data }) => {
          const ttl = (v: string | undefined, name: string) =>
            v === undefined
              ? undefined
              : v === 'system'
                ? 0
                : field.durationSeconds({ description: '' }).parse(v, name);
          const config: Record<string, number> = {};
          const def = ttl(data.default_lease_ttl, 'default_lease_ttl');
          const max = ttl(data.max_lease_ttl, 'max_lease_ttl');
          if (def !== undefined) config.default_lease_ttl = def;
          if (max !== undefined) config.max_lease_ttl = max;
          await sys.mounts.tune('mounts', data.path, { description: data.description, config });
          return undefined;
        },
      },
    },
    help: { synopsis: 'Tune a mount.', description: 'TTLs of 0 or `system` inherit the system defaults (768h).' },
  });
}
