/** The router: the mount tables, the longest-prefix match of a path to its mount, special paths, system TTLs. @module */
import type { Backend } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { MountEntry, TableName } from './mount-table.js';

/** A live mount: its table entry and the backend instance serving it. */
export interface Route {
  /** Full mount point as requests see it (`secret/`, `auth/userpass/`, `sys/`). */
  mountPoint: string;
  entry: MountEntry;
  backend: Backend;
  /** The table the mount is in: `auth` for auth methods (below `auth/`), `mounts` for the rest. */
  table: TableName;
  /** Where the mount's storage lives beneath the barrier (`logical/<uuid>/`, `auth/<uuid>/`, `sys/`). */
  storagePrefix: string;
}

/** A request path's mount and the path below it. */
export interface RouteMatch {
  route: Route;
  relativePath: string;
}

/** The established 404 for a path no mount serves. */
export function routeNotFound(path: string): NotFoundError {
  return new NotFoundError(`no handler for route "${path}". route entry not found.`);
}

/**
 * Finds the mount serving a request path: the longest mount point that prefixes it.
 * Mount points end in `/`, so candidates are the path's prefixes that end at a `/`;
 * looking each up in a map costs one probe per path segment, whatever the mount count.
 */
export class Router {
  readonly #routes = new Map<string, Route>();

  add(route: Route): void {
    this.#routes.set(route.mountPoint, route);
  }

  remove(mountPoint: string): Route | undefined {
    const route = this.#routes.get(mountPoint);
    this.#routes.delete(mountPoint);
    return route;
  }

  /** Forgets every route (on seal). */
  clear(): void {
    this.#routes.clear();
  }

  get(mountPoint: string): Route | undefined {
    return this.#routes.get(mountPoint);
  }

  routes(): Route[] {
    return [...this.#routes.values()];
  }

  /** The route and the path relative to its mount point; 404 when no mount matches. */
  match(path: string): RouteMatch {
    const found = this.find(path);
    if (!found) throw routeNotFound(path);
    return found;
  }

  /** As `match`, `undefined` when no mount matches. */
  find(path: string): RouteMatch | undefined {
    let best: Route | undefined;
    for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
      best = this.#routes.get(path.slice(0, i + 1)) ?? best;
    }
    return best ? { route: best, relativePath: path.slice(best.mountPoint.length) } : undefined;
  }
}
