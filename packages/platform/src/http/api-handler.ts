import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiHandler } from '../api/api-route.js';
import { apiRoutes } from '../api/routes.js';
import { authenticate, bearerSecret } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import {
  errorReply,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
} from '../jsonapi/errors.js';
import { readJsonBody } from './body.js';
import { type RateLimitState, rateLimitHeaders } from './rate-limit.js';
import { ResponseCache } from './response-cache.js';
import { platformRouter } from './router.js';

export const API_PREFIX = '/api/v2';

/** The API version clients (go-tfe) read from every response; the established API sends "2.x". */
export const API_VERSION = '2.6';

/**
 * Serves `/api/v2`: count the request against its token's rate limit (429), route (404/405
 * before anything else, so no token is needed to learn that a method is not allowed), then
 * authenticate (401), then the handler, whose errors become JSON:API error documents in
 * `jsonapi/errors.ts`. Every answer carries `TFP-API-Version` and the `X-RateLimit-*` headers.
 */
export function createApiHandler(ctx: PlatformContext) {
  const router = platformRouter<ApiHandler>(apiRoutes(ctx.edition));
  // Only SQLite can tell cheaply whether anything changed since an entry was made.
  const changeStamp = ctx.store.database.changeStamp;
  const cache = changeStamp ? new ResponseCache(changeStamp, ctx.clock) : undefined;
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const headers: Record<string, string> = { 'tfp-api-version': API_VERSION };
    try {
      const counting = countRequest(ctx, req, headers);
      if (counting) await counting;
      const path = url.pathname.slice(API_PREFIX.length);
      if (path === PING_PATH) {
        answerPing(req, res, headers);
        return;
      }
      const match = router.match(req.method ?? 'GET', path);
      if (match.kind === 'method_not_allowed') throw new MethodNotAllowedError(match.allowed);
      // An unknown path, or a malformed escape in a capture.
      if (match.kind !== 'found') throw new NotFoundError();
      const isRead = req.method === 'GET' || req.method === 'HEAD';
      // Reads repeat far more often than anything changes (see ResponseCache for when an entry ends).
      const cacheKey = isRead && cache ? `${req.headers.authorization ?? ''}\n${url.pathname}${url.search}` : undefined;
      const cached = cacheKey === undefined ? undefined : cache?.get(cacheKey);
      if (cached) {
        sendBytes(res, 200, cached, headers);
        return;
      }
      const principal = await authenticate(ctx, req.headers.authorization);
      const stampBefore = cache?.stamp();
      const body = req.method === 'POST' || req.method === 'PATCH' ? await readJsonBody(req) : undefined;
      const include = includedRelationships(url.searchParams, match.route.includes ?? []);
      const reply = await match.route.handler(ctx, {
        params: match.params,
        query: url.searchParams,
        principal,
        include,
        body,
      });
      if (reply.status === 204) {
        res.writeHead(204, headers).end();
        return;
      }
      const bytes = Buffer.from(JSON.stringify(reply.document));
      if (cacheKey !== undefined && stampBefore !== undefined && (reply.status ?? 200) === 200) {
        cache?.set(cacheKey, bytes, principal.recheckAtMs, stampBefore);
      }
      sendBytes(res, reply.status ?? 200, bytes, headers);
    } catch (err) {
      const reply = errorReply(err, (e) =>
        ctx.logger.error('request failed', { method: req.method, path: url.pathname, err: e }),
      );
      sendBytes(res, reply.status, Buffer.from(JSON.stringify(reply.body)), { ...headers, ...reply.headers });
    }
  };
}

/**
 * The relationships `?include=a,b` names. A name the route cannot include is a 400 whose text
 * mentions the include parameter, which go-tfe turns into `ErrInvalidIncludeValue`.
 */
function includedRelationships(query: URLSearchParams, allowed: readonly string[]): ReadonlySet<string> {
  const names = new Set(query.getAll('include').flatMap((v) => v.split(',')));
  for (const name of names) {
    if (!allowed.includes(name)) {
      const valid = allowed.length > 0 ? `; valid values: ${allowed.join(', ')}` : '; this resource includes nothing';
      throw new InvalidRequestError(`invalid include parameter "${name}"${valid}`, {
        source: { parameter: 'include' },
      });
    }
  }
  return names;
}

/** Answered without a token, so clients and load balancers can tell the API is up. */
const PING_PATH = '/ping';

function answerPing(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(['GET']);
  res.writeHead(204, headers).end();
}

/**
 * Counts the request against its bearer token or, without one, the client's address; adds the
 * rate-limit headers and throws when over the limit. A promise only when the limiter needs one
 * (the database's), so the in-memory limiter costs reads no extra tick.
 */
function countRequest(
  ctx: PlatformContext,
  req: IncomingMessage,
  headers: Record<string, string>,
): Promise<void> | undefined {
  const secret = bearerSecret(req.headers.authorization);
  const key = secret ? `token:${secret}` : `addr:${req.socket.remoteAddress ?? ''}`;
  const nowMs = ctx.clock.now();
  const hit = ctx.rateLimiter.hit(key, nowMs);
  if (hit instanceof Promise) return hit.then((state) => applyLimit(state, nowMs, headers));
  applyLimit(hit, nowMs, headers);
  return undefined;
}

function applyLimit(state: RateLimitState, nowMs: number, headers: Record<string, string>): void {
  Object.assign(headers, rateLimitHeaders(state, nowMs));
  if (state.isLimited) throw new RateLimitedError();
}

/** Sends a document; for HEAD, Node leaves the body out and keeps the length. */
function sendBytes(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'content-type': JSONAPI_MEDIA_TYPE, 'content-length': body.length });
  res.end(body);
}
