/** What the router holds, as `sys/internal/inspect/router/:tag` reports it. @module */
import { mountPoint } from './mounts.js';
import type { Route } from './router.js';

/** The established tags: the router's tables, keyed by mount point, UUID, accessor and storage prefix. */
export const ROUTER_TAGS = ['root', 'uuid', 'accessor', 'storage'] as const;
export type RouterTag = (typeof ROUTER_TAGS)[number];

/** One mount as the router holds it, in the established field names. */
export interface RouterRecord {
  mount_path: string;
  mount_namespace: string;
  mount_type: string;
  mount_class: 'secret' | 'auth';
  uuid: string;
  accessor: string;
  storage_prefix: string;
  /** Ward removes a mount from the router before it unmounts it: nothing it holds is ever tainted. */
  tainted: false;
}

function recordOf(route: Route): RouterRecord {
  const relative = mountPoint(route.table, route.entry.path);
  return {
    mount_path: route.entry.path,
    mount_namespace: route.mountPoint.slice(0, route.mountPoint.length - relative.length),
    mount_type: route.entry.type,
    mount_class: route.table === 'auth' ? 'auth' : 'secret',
    uuid: route.entry.uuid,
    accessor: route.entry.accessor,
    storage_prefix: route.storagePrefix,
    tainted: false,
  };
}

const KEY_OF: ReadonlyMap<RouterTag, (r: Route) => string> = new Map<RouterTag, (r: Route) => string>([
  ['root', (r) => r.mountPoint],
  ['uuid', (r) => r.entry.uuid],
  ['accessor', (r) => r.entry.accessor],
  ['storage', (r) => r.storagePrefix],
]);

/** Every mount of the router, ordered by what the `tag` table is keyed by. */
export function routerRecords(routes: readonly Route[], tag: RouterTag): RouterRecord[] {
  const key = KEY_OF.get(tag) ?? ((r: Route) => r.mountPoint);
  return [...routes].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map(recordOf);
}
