import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/read-body.js';
import { sendJson } from '../http/respond.js';
import { InvalidRequestError, UnsupportedOperationError } from '../logical/errors.js';
import type { LeaseCache } from './lease-cache.js';

export interface ProxyApiOptions {
  cache?: LeaseCache;
  isQuitEnabled: boolean;
  onQuit(): void;
  maxRequestSize: number;
}

/**
 * The proxy's own endpoints, answered by the proxy and never forwarded:
 * - `POST /proxy/v1/cache-clear` `{type, value, namespace}` evicts cache entries (200; a proxy
 *   without a cache has nothing to clear and answers 200 too, as established);
 * - `POST /proxy/v1/quit` (the established method; `GET` too, as our issue tracker's users call it)
 *   stops the proxy, on a listener with `proxy_api { enable_quit = true }` (404 elsewhere). It needs
 *   no token, which is why it is off unless asked for.
 */
export async function serveProxyApi(
  o: ProxyApiOptions,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> {
  switch (pathname) {
    case '/proxy/v1/cache-clear': {
      requireMethod(req, ['POST', 'PUT']);
      const input = parseJson(await readBody(req, o.maxRequestSize));
      o.cache?.clear(input);
      return sendEmpty(res);
    }
    case '/proxy/v1/quit': {
      if (!o.isQuitEnabled) return sendJson(res, 404, { errors: [] });
      requireMethod(req, ['POST', 'GET']);
      sendEmpty(res);
      // After the answer is out: shutting down closes this listener.
      res.once('finish', () => o.onQuit());
      return;
    }
    default:
      return sendJson(res, 404, { errors: [] });
  }
}

function requireMethod(req: IncomingMessage, allowed: string[]): void {
  if (!allowed.includes(req.method ?? '')) throw new UnsupportedOperationError(`use ${allowed.join(' or ')}`);
}

function parseJson(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidRequestError('failed to parse JSON input');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestError('failed to parse JSON input: want an object');
  }
  return parsed as Record<string, unknown>;
}

function sendEmpty(res: ServerResponse): void {
  res.writeHead(200, { 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}
