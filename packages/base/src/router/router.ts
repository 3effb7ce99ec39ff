import { compileSegmentPattern, type PatternSegment, type SegmentPattern } from './segment-pattern.js';

/** One entry of a route table: the methods it answers and its pattern (see segment-pattern.ts). */
export interface RouteEntry {
  readonly method: string | readonly string[];
  readonly pattern: string;
}

export interface RouterOptions {
  /** Percent-decode captured values (literals are compared as sent); a malformed escape is `bad_escape`. */
  readonly decode?: boolean;
  /** Ignore empty segments: a trailing or doubled slash reaches the same route. Default: exact. */
  readonly looseSlashes?: boolean;
  /** A HEAD request finds the GET route (the server then leaves out the body). */
  readonly headAsGet?: boolean;
}

export type RouteMatch<R> =
  | { readonly kind: 'found'; readonly route: R; readonly params: Record<string, string> }
  /** The path exists, for these methods only (405). */
  | { readonly kind: 'method_not_allowed'; readonly allowed: string[] }
  | { readonly kind: 'not_found' }
  /** The route's captures hold a malformed percent-escape (each server says whether that is 400 or 404). */
  | { readonly kind: 'bad_escape'; readonly segment: string };

interface Compiled<R> {
  readonly route: R;
  readonly methods: readonly string[];
  readonly pattern: SegmentPattern;
}

/**
 * A route table. The most specific route wins whatever the table's order: at the first segment where two
 * matching patterns differ, a literal beats a `:capture`, which beats a `*rest` (`token/self` before
 * `token/:accessor`); equally specific routes keep their order. A path that matches only routes of
 * other methods is `method_not_allowed`, with those methods.
 */
export class Router<R extends RouteEntry> {
  readonly #routes: readonly Compiled<R>[];
  readonly #options: RouterOptions;

  constructor(routes: readonly R[], options: RouterOptions = {}) {
    this.#options = options;
    const compiled = routes.map((route) => ({
      route,
      methods: typeof route.method === 'string' ? [route.method] : route.method,
      pattern: compileSegmentPattern(route.pattern, this.#split(route.pattern)),
    }));
    this.#routes = compiled.sort((a, b) => compareSpecificity(a.pattern.segments, b.pattern.segments));
  }

  match(requestMethod: string, path: string): RouteMatch<R> {
    const method = requestMethod === 'HEAD' && this.#options.headAsGet ? 'GET' : requestMethod;
    const segments = this.#split(path);
    const looseSlashes = this.#options.looseSlashes === true;
    const allowed: string[] = [];
    for (const { route, methods, pattern } of this.#routes) {
      const params = pattern.matchSegments(segments, looseSlashes);
      if (!params) continue;
      if (methods.includes(method))
        return this.#options.decode ? decoded(route, params) : { kind: 'found', route, params };
      for (const m of methods) if (!allowed.includes(m)) allowed.push(m);
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }

  #split(path: string): string[] {
    const segments = path.split('/');
    return this.#options.looseSlashes ? segments.filter((s) => s !== '') : segments;
  }
}

function decoded<R>(route: R, raw: Record<string, string>): RouteMatch<R> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      return { kind: 'bad_escape', segment: value };
    }
  }
  return { kind: 'found', route, params };
}

const RANK = { literal: 0, param: 1, rest: 2 } as const;

/** Negative when `a` is the more specific pattern (see Router). */
function compareSpecificity(a: readonly PatternSegment[], b: readonly PatternSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const diff = RANK[(a[i] as PatternSegment).kind] - RANK[(b[i] as PatternSegment).kind];
    if (diff !== 0) return diff;
  }
  return 0;
}
