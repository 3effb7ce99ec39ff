/** The `/api/v2` JSON:API routes: organizations, subscriptions, feature sets, entitlements, tokens. @module */
import type { Principal } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import type { RouteSpec } from '../http/router.js';
import type { Document } from '../jsonapi/document.js';

export interface ApiRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal;
  /** The relationships named in `?include=`, each one the route declares (checked before the handler). */
  include: ReadonlySet<string>;
  /** The parsed request document; undefined when the request had no body. */
  body: unknown;
}

/** A handler's answer: 200 with a document unless it says otherwise; 204 has no document. */
export type ApiReply = { status?: 200 | 201; document: Document } | { status: 204 };

export type ApiHandler = (ctx: PlatformContext, req: ApiRequest) => Promise<ApiReply>;
export type ApiRoute = RouteSpec<ApiHandler>;
