/** Routing below /ui: path patterns, the browser history, screens loaded on demand. @module */
/** Where the app is: the path below `/ui` and the query; screens get it through the app context. */
export interface Location {
  path: string;
  query: URLSearchParams;
}

export const BASE = '/ui';

/** The browser history, seen from the app: the current location, and navigation without reloads. */
export class Router {
  #location: Location;
  readonly #listeners = new Set<() => void>();

  constructor(private readonly win: Window) {
    this.#location = this.#read();
    win.addEventListener('popstate', () => this.#changed());
  }

  get location(): Location {
    return this.#location;
  }

  /** The URL of an app path (`/secrets` → `/ui/secrets`). */
  href(path: string): string {
    return `${BASE}${path}`;
  }

  navigate(path: string, options: { replace?: boolean } = {}): void {
    const url = this.href(path);
    if (options.replace) this.win.history.replaceState(null, '', url);
    else this.win.history.pushState(null, '', url);
    this.#changed();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#location = this.#read();
    for (const l of this.#listeners) l();
  }

  #read(): Location {
    const { pathname, search } = this.win.location;
    const path = pathname.startsWith(`${BASE}/`) ? pathname.slice(BASE.length) : '/';
    return { path, query: new URLSearchParams(search) };
  }
}
