import { pathOf } from '../../router/match.js';

/** A secrets engine as `sys/internal/ui/mounts` lists it. */
export interface EngineMount {
  /** With its trailing slash: `secret/`. */
  path: string;
  type: string;
  description: string;
  options: Record<string, string> | null;
  accessor?: string;
  local?: boolean;
  seal_wrap?: boolean;
  config?: Record<string, unknown>;
}

/** The mount path as one URL segment: `team/kv/` → `team%2Fkv`, undone by the router. */
export function mountSegment(path: string): string {
  return path.replace(/\/+$/, '');
}

/** `kv` with `version = 2` is KV v2. */
export function kvVersionOf(mount: Pick<EngineMount, 'type' | 'options'>): 1 | 2 | undefined {
  if (mount.type === 'cubbyhole') return 1;
  if (mount.type !== 'kv' && mount.type !== 'generic') return undefined;
  return mount.options?.version === '2' ? 2 : 1;
}

/**
 * Where an engine's link leads, by type. An engine type gets its own screens by adding a line here
 * (and its routes in routes.ts); the rest lead to the engine's settings.
 */
const ENGINE_HOMES = new Map<string, (mount: string) => string>([
  ['kv', (m) => `${pathOf('secrets', m, 'kv')}/`],
  ['generic', (m) => `${pathOf('secrets', m, 'kv')}/`],
  ['cubbyhole', (m) => `${pathOf('secrets', m, 'kv')}/`],
  ['totp', (m) => pathOf('secrets', m, 'totp')],
  ['transit', (m) => pathOf('secrets', m, 'transit')],
  ['pki', (m) => pathOf('secrets', m, 'pki')],
  ['database', (m) => pathOf('secrets', m, 'database')],
  ['ldap', (m) => pathOf('secrets', m, 'ldap')],
  ['openldap', (m) => pathOf('secrets', m, 'ldap')],
]);

export function engineHome(mount: Pick<EngineMount, 'type' | 'path'>): string {
  const segment = mountSegment(mount.path);
  return ENGINE_HOMES.get(mount.type)?.(segment) ?? pathOf('secrets', segment, 'configure');
}

/** Reads the mount list the token may see (`sys/internal/ui/mounts`), sorted by path. */
export function engineList(data: { secret?: Record<string, Omit<EngineMount, 'path'>> } | undefined): EngineMount[] {
  return Object.entries(data?.secret ?? {})
    .map(([path, m]) => ({ ...m, path }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
