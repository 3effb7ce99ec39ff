import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiHandler } from '../api/api-route.js';
import { apiRoutes } from '../api/routes.js';
import { authenticate } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { errorReply, MethodNotAllowedError, NotFoundError } from '../jsonapi/errors.js';
import { readJsonBody } from './body.js';
import { Router } from './router.js';

export const API_PREFIX = '/api/v2';

/**
 * Serves `/api/v2`: route (404/405 before anything else, so no token is needed to learn that a
 * method is not allowed), then authenticate (401), then the handler, whose errors become
 * JSON:API error documents in `jsonapi/errors.ts`.
 */
export function createApiHandler(ctx: PlatformContext) {
  const router = new Router<ApiHandler>(apiRoutes(ctx.edition));
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    try {
      const match = router.match(req.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
      if (match.kind === 'not_found') throw new NotFoundError();
      if (match.kind === 'method_not_allowed') throw new MethodNotAllowedError(match.allowed);
      const principal = authenticate(ctx, req.headers.authorization);
      const body = req.method === 'POST' || req.method === 'PATCH' ? await readJsonBody(req) : undefined;
      const reply = match.handler(ctx, { params: match.params, query: url.searchParams, principal, body });
      if (reply.status === 204) {
        res.writeHead(204).end();
        return;
      }
      send(res, reply.status ?? 200, reply.document);
    } catch (err) {
      const reply = errorReply(err, (e) =>
        ctx.logger.error('request failed', { method: req.method, path: url.pathname, err: e }),
      );
      send(res, reply.status, reply.body, reply.headers);
    }
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': JSONAPI_MEDIA_TYPE,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
