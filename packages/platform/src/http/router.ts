/**
 * A route table matched segment by segment. Patterns use `:name` for one path segment, so a
 * route reads like the documentation (`/organizations/:organization_name/subscription`).
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteSpec<H> {
  method: Method;
  pattern: string;
  handler: H;
  /** The relationships `?include=` may name on this route; any other name is a 400. */
  includes?: readonly string[];
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: Record<string, string>; includes: readonly string[] }
  | { kind: 'method_not_allowed'; allowed: Method[] }
  | { kind: 'not_found' };

interface Compiled<H> extends RouteSpec<H> {
  segments: string[];
}

export class Router<H> {
  readonly #routes: Compiled<H>[];

  constructor(routes: readonly RouteSpec<H>[]) {
    this.#routes = routes.map((r) => ({ ...r, segments: split(r.pattern) }));
  }

  /**
   * The handler for `method` on `path`; a path that exists for other methods only is a 405.
   * HEAD finds the GET route: the server sends its headers and leaves out the body.
   */
  match(requestMethod: string, path: string): Match<H> {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    const segments = split(path);
    const allowed: Method[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) {
        return { kind: 'found', handler: route.handler, params, includes: route.includes ?? [] };
      }
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] ?? '';
    const a = actual[i] ?? '';
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(a);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== a) {
      return undefined;
    }
  }
  return params;
}
