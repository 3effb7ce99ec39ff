/** The web pages under `/app`: sign-in, the organizations list and form, and the billing page, server-rendered HTML. @module */
import type { PlatformContext } from '../context.js';
import type { RouteSpec } from '../http/router.js';

export interface WebRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The urlencoded form of a POST; empty for GET. */
  form: URLSearchParams;
  cookies: Map<string, string>;
  /** Served over TLS, so cookies get `Secure`. */
  secure: boolean;
}

export type WebReply =
  | { kind: 'page'; status?: number; html: string; cookies?: string[] }
  | { kind: 'redirect'; location: string; cookies?: string[] };

export type WebHandler = (ctx: PlatformContext, req: WebRequest) => Promise<WebReply>;
export type WebRoute = RouteSpec<WebHandler>;
