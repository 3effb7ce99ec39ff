import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { RequestTooLargeError } from '../logical/errors.js';
import { splitTarget } from './logical-request.js';
import { closeAfterResponse } from './read-body.js';
import { indexWithOidcResponse, isFormEncoded, isOidcCallbackPath, readOidcFormPost } from './ui-oidc-form-post.js';

/** The built web UI (packages/ui/dist), read once at startup: a few hundred kilobytes. */
export interface UiAssets {
  /** `index.html`, served for every `/ui/…` path that is no file (the app routes in the browser). */
  index: Buffer;
  /** Path below `/ui/` (`assets/index-3f9a.js`) → the file. */
  files: ReadonlyMap<string, Buffer>;
}

/** The policy every UI response carries: the app's own scripts and styles, and calls to this server only. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names what it builds into `assets/` by content hash: such a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.json', 'application/json'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.woff2', 'font/woff2'],
]);

/** Reads the built UI from `dir`; undefined when it has not been built (no index.html). */
export async function loadUiAssets(dir: string): Promise<UiAssets | undefined> {
  let index: Buffer;
  try {
    index = await readFile(join(dir, 'index.html'));
  } catch {
    return undefined;
  }
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split(sep).join('/');
    // Source maps stay on disk: they would hand out the source to anyone, and no browser needs them.
    if (path === 'index.html' || path.endsWith('.map')) continue;
    files.set(path, await readFile(full));
  }
  return { index, files };
}

/**
 * Serves the UI at `/ui/` and redirects `/` there; answers whether it took the request (anything
 * else is the API's). Only GET and HEAD (the UI is static), and the POST of an OIDC provider's
 * `form_post` answer to the landing page.
 */
export function serveUi(assets: UiAssets, req: IncomingMessage, res: ServerResponse): boolean {
  const { pathname } = splitTarget(req.url ?? '/');
  if (pathname !== '/' && pathname !== '/ui' && !pathname.startsWith('/ui/')) return false;
  if (req.method === 'POST' && isOidcCallbackPath(pathname)) {
    // Nothing is left to answer with if this fails half-way (the socket went): the connection is dropped.
    answerOidcFormPost(assets, req, res).catch(() => res.destroy());
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('method not allowed\n');
    return true;
  }
  // As established: a temporary redirect, so that turning the UI off later is not remembered by browsers.
  if (pathname === '/' || pathname === '/ui') {
    res.writeHead(307, { Location: '/ui/', 'Cache-Control': 'no-cache' });
    res.end();
    return true;
  }
  const path = pathname.slice('/ui/'.length);
  const file = assets.files.get(path);
  if (file) {
    send(req, res, 200, TYPES.get(extname(path)) ?? 'application/octet-stream', file, cacheOf(path));
    return true;
  }
  // A missing asset is a 404 (a stale index.html asking for an old bundle must not get HTML back).
  if (path.startsWith('assets/')) {
    send(req, res, 404, 'text/plain; charset=utf-8', Buffer.from('not found\n'), 'no-cache');
    return true;
  }
  // Every other path is a screen of the app: the browser shows it from index.html, always revalidated.
  send(req, res, 200, 'text/html; charset=utf-8', assets.index, 'no-cache');
  return true;
}

/**
 * An OIDC provider's `form_post` answer to the landing page: the page, with the answer in it (never
 * cached: it holds a one-time code). A body that is not a form is 415; one too large, 413.
 */
async function answerOidcFormPost(assets: UiAssets, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refuse = (status: number, text: string) => {
    closeAfterResponse(req, res);
    send(req, res, status, 'text/plain; charset=utf-8', Buffer.from(`${text}\n`), 'no-store');
  };
  if (!isFormEncoded(req)) return refuse(415, 'the OIDC answer must be application/x-www-form-urlencoded');
  let answer: URLSearchParams;
  try {
    answer = await readOidcFormPost(req);
  } catch (err) {
    return refuse(err instanceof RequestTooLargeError ? 413 : 400, 'the OIDC answer could not be read');
  }
  send(req, res, 200, 'text/html; charset=utf-8', indexWithOidcResponse(assets.index, answer), 'no-store');
}

function cacheOf(path: string): string {
  return path.startsWith('assets/') ? IMMUTABLE : 'no-cache';
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: Buffer,
  cache: string,
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Cache-Control': cache,
    'Content-Security-Policy': UI_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
