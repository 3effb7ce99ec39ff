import { randomBase62 } from '@ward/base';
import { authenticate } from '../auth/principal.js';
import { UnauthorizedError } from '../jsonapi/errors.js';
import { setCookie } from './cookies.js';
import { checkCsrf, currentSession, endSession, SIGN_IN_CSRF_COOKIE, startSession } from './session.js';
import { organizationsPage, signInPage } from './session-view.js';
import type { WebRequest, WebRoute } from './web-route.js';

/**
 * Only our own pages: anything else in `return_to` would make sign-in an open redirect. A dot
 * segment (`/app/../x`, also percent-encoded) is refused, since browsers resolve it before
 * requesting, which would lead out of `/app`.
 */
export function safeReturnTo(value: string | null): string {
  if (!value || !/^\/app(\/[A-Za-z0-9_\-/.%]*)?$/.test(value) || value.includes('//')) return '/app';
  const isDotSegment = (segment: string) => {
    try {
      return /^\.{1,2}$/.test(decodeURIComponent(segment));
    } catch {
      return true;
    }
  };
  return value.split('/').some(isDotSegment) ? '/app' : value;
}

export const signInRoutes: WebRoute[] = [
  {
    method: 'GET',
    pattern: '/app',
    handler: async (ctx, req) => {
      const signedIn = await currentSession(ctx, req.cookies);
      if (!signedIn) return { kind: 'redirect', location: '/app/session/new' };
      return {
        kind: 'page',
        html: organizationsPage(await ctx.store.organizations.forUser(signedIn.user.id), req.query.get('created'), {
          username: signedIn.user.username,
          csrfToken: signedIn.csrfToken,
          current: 'organizations',
        }),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/app/session/new',
    handler: async (ctx, req) => signInForm(ctx.random, req, null, 200),
  },
  {
    method: 'POST',
    pattern: '/app/session',
    handler: async (ctx, req) => {
      checkCsrf(req.cookies.get(SIGN_IN_CSRF_COOKIE), req.form.get('authenticity_token'));
      let principal: Awaited<ReturnType<typeof authenticate>> | undefined;
      try {
        principal = await authenticate(ctx, `Bearer ${req.form.get('token') ?? ''}`);
      } catch (err) {
        if (!(err instanceof UnauthorizedError)) throw err;
      }
      // An organization token acts for no person, so it cannot own a session.
      if (principal?.kind !== 'user') return signInForm(ctx.random, req, 'That is not a valid user API token.', 401);
      return {
        kind: 'redirect',
        location: safeReturnTo(req.form.get('return_to')),
        cookies: [
          await startSession(ctx, principal.user, req.secure),
          setCookie(SIGN_IN_CSRF_COOKIE, '', { maxAgeSeconds: 0, secure: req.secure }),
        ],
      };
    },
  },
  {
    method: 'POST',
    pattern: '/app/session/delete',
    handler: async (ctx, req) => {
      checkCsrf((await currentSession(ctx, req.cookies))?.csrfToken, req.form.get('authenticity_token'));
      return {
        kind: 'redirect',
        location: '/app/session/new',
        cookies: [await endSession(ctx, req.cookies, req.secure)],
      };
    },
  },
];

function signInForm(random: Parameters<typeof randomBase62>[0], req: WebRequest, error: string | null, status: number) {
  const csrf = randomBase62(random, 32);
  const returnTo = safeReturnTo(req.query.get('return_to') ?? req.form.get('return_to'));
  return {
    kind: 'page' as const,
    status,
    html: signInPage(csrf, returnTo, error),
    cookies: [setCookie(SIGN_IN_CSRF_COOKIE, csrf, { maxAgeSeconds: 3600, secure: req.secure })],
  };
}
