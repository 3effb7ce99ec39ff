import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiHandler } from '../api/api-route.js';
import { apiRoutes } from '../api/routes.js';
import { authenticate } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { errorReply, MethodNotAllowedError, NotFoundError } from '../jsonapi/errors.js';
import { readJsonBody } from './body.js';
import { ResponseCache } from './response-cache.js';
import { Router } from './router.js';

export const API_PREFIX = '/api/v2';

/**
 * Serves `/api/v2`: route (404/405 before anything else, so no token is needed to learn that a
 * method is not allowed), then authenticate (401), then the handler, whose errors become
 * JSON:API error documents in `jsonapi/errors.ts`.
 */
export function createApiHandler(ctx: PlatformContext) {
  const router = new Router<ApiHandler>(apiRoutes(ctx.edition));
  const cache = new ResponseCache(ctx.store.db, ctx.clock);
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    try {
      const match = router.match(req.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
      if (match.kind === 'not_found') throw new NotFoundError();
      if (match.kind === 'method_not_allowed') throw new MethodNotAllowedError(match.allowed);
      // Reads repeat far more often than anything changes (see ResponseCache for when an entry ends).
      const cacheKey =
        req.method === 'GET' ? `${req.headers.authorization ?? ''}\n${url.pathname}${url.search}` : undefined;
      const cached = cacheKey === undefined ? undefined : cache.get(cacheKey);
      if (cached) {
        sendBytes(res, 200, cached);
        return;
      }
      const principal = authenticate(ctx, req.headers.authorization);
      const body = req.method === 'POST' || req.method === 'PATCH' ? await readJsonBody(req) : undefined;
      const reply = match.handler(ctx, { params: match.params, query: url.searchParams, principal, body });
      if (reply.status === 204) {
        res.writeHead(204).end();
        return;
      }
      const bytes = Buffer.from(JSON.stringify(reply.document));
      if (cacheKey !== undefined && (reply.status ?? 200) === 200) cache.set(cacheKey, bytes, principal.recheckAtMs);
      sendBytes(res, reply.status ?? 200, bytes);
    } catch (err) {
      const reply = errorReply(err, (e) =>
        ctx.logger.error('request failed', { method: req.method, path: url.pathname, err: e }),
      );
      sendBytes(res, reply.status, Buffer.from(JSON.stringify(reply.body)), reply.headers);
    }
  };
}

function sendBytes(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': JSONAPI_MEDIA_TYPE, 'content-length': body.length });
  res.end(body);
}
