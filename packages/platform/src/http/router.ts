import { type RouteEntry, Router, type RouterOptions } from '@ward/base';

/**
 * The platform's route tables, on base's router. Patterns use `:name` for one path segment, so a
 * route reads like the documentation (`/organizations/:organization_name/subscription`).
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteSpec<H> extends RouteEntry {
  method: Method;
  pattern: string;
  handler: H;
  /** The relationships `?include=` may name on this route; any other name is a 400. */
  includes?: readonly string[];
}

/**
 * How the platform routes: a trailing or doubled slash reaches the same route, captures are
 * percent-decoded (a malformed escape matches nothing: 404), and HEAD finds the GET route (the server
 * sends its headers and leaves out the body).
 */
export const PLATFORM_ROUTING: RouterOptions = { decode: true, looseSlashes: true, headAsGet: true };

export function platformRouter<H>(routes: readonly RouteSpec<H>[]): Router<RouteSpec<H>> {
  return new Router(routes, PLATFORM_ROUTING);
}
