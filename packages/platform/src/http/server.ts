/** The HTTP layer: the router, request bodies, rate limits, cached responses, the API and web handlers. @module */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { PlatformContext } from '../context.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { API_PREFIX, createApiHandler } from './api-handler.js';
import { createWebHandler } from './web-handler.js';

export interface TlsOptions {
  cert: Buffer;
  key: Buffer;
}

/** The request listener for the API under `/api/v2` and the web pages under `/app`. */
export function createRequestListener(ctx: PlatformContext, opts: { secure: boolean }) {
  const api = createApiHandler(ctx);
  const web = createWebHandler(ctx);
  return (req: IncomingMessage, res: ServerResponse): void => {
    // The host is irrelevant to routing; a fixed base keeps a forged Host header out of URL parsing.
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://ward.invalid');
    } catch {
      res.writeHead(400).end();
      return;
    }
    logRequest(ctx, req, res, url);
    const done = (p: Promise<void>) =>
      p.catch((err) => {
        ctx.logger.error('response failed', { err });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    if (url.pathname === HEALTH_PATH) done(answerHealth(ctx, req, res));
    else if (url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`)) done(api(req, res, url));
    else if (url.pathname === '/app' || url.pathname.startsWith('/app/')) done(web(req, res, url, opts.secure));
    else {
      const body = JSON.stringify({ errors: [{ status: '404', title: 'not found' }] });
      res.writeHead(404, { 'content-type': JSONAPI_MEDIA_TYPE }).end(body);
    }
  };
}

/**
 * At debug, one line per request once it is answered: method, path (without the query string,
 * which may carry a value nobody should read in a log), status and duration. Never a header.
 */
function logRequest(ctx: PlatformContext, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (ctx.logger.isEnabled?.('debug') === false) return;
  const start = ctx.clock.now();
  res.once('finish', () => {
    ctx.logger.debug('request', {
      method: req.method,
      path: url.pathname,
      status: res.statusCode,
      duration_ms: ctx.clock.now() - start,
    });
  });
}

/** For load balancers and orchestrators: no token, outside the API's rate limit. */
const HEALTH_PATH = '/_health';

/** 200 while the database answers, 503 when it does not; never cached. */
async function answerHealth(ctx: PlatformContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end(JSON.stringify({ status: 'method not allowed' }));
    return;
  }
  let isUp = true;
  try {
    await ctx.store.ping();
  } catch (err) {
    ctx.logger.error('health check: the database does not answer', { err });
    isUp = false;
  }
  const body = JSON.stringify({ status: isUp ? 'ok' : 'unavailable', edition: ctx.edition });
  res.writeHead(isUp ? 200 : 503, headers).end(body);
}

/** An HTTP (or, given `tls`, HTTPS) server for the platform; the caller listens and closes. */
export function buildServer(ctx: PlatformContext, tls?: TlsOptions): Server {
  const listener = createRequestListener(ctx, { secure: tls !== undefined });
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, listener) : createHttpServer(listener);
  // Keep-alive clients (benchmarks, proxies) reuse connections; a close must not wait on them forever.
  server.keepAliveTimeout = 5_000;
  return server;
}
