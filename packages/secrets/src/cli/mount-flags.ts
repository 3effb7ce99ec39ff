import { formatDurationShort } from '@ward/base';
import type { MountInfo } from '@ward/secrets-client';
import { flag } from './command.js';

/** Flags shared by `secrets enable`, `secrets tune` and `auth enable`. */
export const mountFlags = {
  description: flag.string('Human-readable description.'),
  'default-lease-ttl': flag.string('Default lease TTL (e.g. 1h, or "system").'),
  'max-lease-ttl': flag.string('Maximum lease TTL (e.g. 24h, or "system").'),
  options: flag.list('Engine option K=V (e.g. version=2).'),
};

/** The rows of `secrets list` / `auth list`: sorted by path. */
export function mountRows(
  mounts: Record<string, MountInfo>,
  detailed: boolean,
): { headers: string[]; rows: unknown[][] } {
  const headers = ['Path', 'Type', 'Accessor', 'Description'];
  const extra = ['Default TTL', 'Max TTL', 'Options'];
  const ttl = (s: number | undefined) => (s ? formatDurationShort(s) : 'system');
  const rows = Object.entries(mounts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, m]) => [
      path,
      m.type,
      m.accessor,
      m.description || 'n/a',
      ...(detailed ? [ttl(m.config?.default_lease_ttl), ttl(m.config?.max_lease_ttl), m.options ?? 'n/a'] : []),
    ]);
  return { headers: detailed ? [...headers, ...extra] : headers, rows };
}

/** `-path` or the type, with one trailing slash, as the established CLI shows mount paths. */
export function mountPathOf(pathFlag: string | undefined, type: string): string {
  return `${(pathFlag ?? type).replace(/^\/+|\/+$/g, '')}/`;
}
