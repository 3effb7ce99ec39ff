import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformContext } from '../context.js';
import {
  MethodNotAllowedError,
  NotFoundError,
  PlatformError,
  statusOf,
  UnsupportedMediaTypeError,
} from '../jsonapi/errors.js';
import { APP_CSS } from '../web/app-css.js';
import { billingRoutes } from '../web/billing-routes.js';
import { parseCookies } from '../web/cookies.js';
import type { Chrome } from '../web/html.js';
import { organizationRoutes } from '../web/organization-routes.js';
import { currentSession } from '../web/session.js';
import { errorPage } from '../web/session-view.js';
import { signInRoutes } from '../web/sign-in-routes.js';
import type { WebHandler, WebReply } from '../web/web-route.js';
import { readBody } from './body.js';
import { platformRouter } from './router.js';

/**
 * No scripts at all, styles only from our origin, forms only to our origin, and no framing:
 * a confirm button inside someone else's frame could be clicked by trickery.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Serves the web pages under `/app`. */
export function createWebHandler(ctx: PlatformContext) {
  const router = platformRouter<WebHandler>([
    ...signInRoutes,
    ...organizationRoutes,
    ...(ctx.edition === 'hosted' ? billingRoutes : []),
  ]);
  return async (req: IncomingMessage, res: ServerResponse, url: URL, secure: boolean): Promise<void> => {
    if (url.pathname === '/app/assets/app.css' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'max-age=300' }).end(APP_CSS);
      return;
    }
    let reply: WebReply;
    try {
      const match = router.match(req.method ?? 'GET', url.pathname);
      if (match.kind === 'method_not_allowed') throw new MethodNotAllowedError(match.allowed);
      // An unknown path, or a malformed escape in a capture.
      if (match.kind !== 'found') throw new NotFoundError('there is no such page');
      const form = req.method === 'POST' ? await readForm(req) : new URLSearchParams();
      const cookies = parseCookies(req.headers.cookie);
      reply = await match.route.handler(ctx, { params: match.params, query: url.searchParams, form, cookies, secure });
    } catch (err) {
      const status = statusOf(err);
      if (status === 500) ctx.logger.error('page failed', { method: req.method, path: url.pathname, err });
      // Only our own errors' messages are meant for people; anything else stays in the log.
      const message = err instanceof PlatformError ? err.message : 'internal error';
      reply = { kind: 'page', status, html: errorPage(status, message, await signedInChrome(ctx, req)) };
    }
    const headers: Record<string, string | string[]> = { ...SECURITY_HEADERS };
    if (reply.cookies) headers['set-cookie'] = reply.cookies;
    if (reply.kind === 'redirect') {
      res.writeHead(303, { ...headers, location: reply.location }).end();
      return;
    }
    res.writeHead(reply.status ?? 200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
  };
}

/** The header of whoever is signed in, for an error page; none when no one is (or the lookup fails). */
async function signedInChrome(ctx: PlatformContext, req: IncomingMessage): Promise<Chrome | undefined> {
  try {
    const signedIn = await currentSession(ctx, parseCookies(req.headers.cookie));
    return signedIn && { username: signedIn.user.username, csrfToken: signedIn.csrfToken, current: null };
  } catch {
    return undefined;
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const text = await readBody(req);
  if (text !== '' && type !== 'application/x-www-form-urlencoded') {
    throw new UnsupportedMediaTypeError('forms are sent as application/x-www-form-urlencoded');
  }
  return new URLSearchParams(text);
}
