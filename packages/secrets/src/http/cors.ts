import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsConfig } from '../core/cors-config.js';
import { sendJson } from './respond.js';

/** Methods a preflight may ask for (established list and order). */
const ALLOWED_METHODS = ['DELETE', 'GET', 'OPTIONS', 'POST', 'PUT', 'LIST'];
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = '300';

/**
 * Applies the CORS setting to one request. Acts only when CORS is enabled and the request
 * names an `Origin`; everything else passes untouched. Returns true when it has answered the
 * request itself: a refused origin (403), or a preflight (200, or 405 for a method not allowed).
 * An allowed ordinary request gets its `Access-Control-Allow-Origin` header and goes on.
 */
export function applyCors(config: Readonly<CorsConfig>, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (!config.enabled || !origin) return false;
  const isAllowed = config.allowed_origins[0] === '*' || config.allowed_origins.includes(origin);
  if (!isAllowed) {
    sendJson(res, 403, { errors: ['origin not allowed'] });
    return true;
  }
  const isPreflight = req.method === 'OPTIONS';
  const requested = String(req.headers['access-control-request-method'] ?? '');
  if (isPreflight && !ALLOWED_METHODS.includes(requested)) {
    res.writeHead(405, { 'Cache-Control': 'no-store', 'Content-Length': 0 });
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Allow-Origin', origin);
  // The answer depends on the origin: a shared cache must not hand it to another one.
  res.setHeader('Vary', 'Origin');
  if (!isPreflight) return false;
  res.writeHead(200, {
    'Cache-Control': 'no-store',
    'Access-Control-Allow-Methods': ALLOWED_METHODS.join(','),
    'Access-Control-Allow-Headers': config.allowed_headers.join(','),
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    'Content-Length': 0,
  });
  res.end();
  return true;
}
