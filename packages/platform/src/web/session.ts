import { timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '@ward/base';
import type { PlatformContext } from '../context.js';
import { ForbiddenError } from '../jsonapi/errors.js';
import type { UserRow } from '../store/index.js';
import { setCookie } from './cookies.js';

const SESSION_COOKIE = 'ward_session';
/** Double-submit cookie for the sign-in form, which has no session to hold a CSRF token yet. */
export const SIGN_IN_CSRF_COOKIE = 'ward_sign_in';
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface SignedIn {
  user: UserRow;
  csrfToken: string;
}

/** The user behind the session cookie, or undefined when there is none, or it expired. */
export async function currentSession(
  ctx: PlatformContext,
  cookies: Map<string, string>,
): Promise<SignedIn | undefined> {
  const id = cookies.get(SESSION_COOKIE);
  if (!id) return undefined;
  const session = await ctx.store.sessions.get(id, ctx.clock.now());
  const user = session && (await ctx.store.users.get(session.user_id));
  return session && user ? { user, csrfToken: session.csrf_token } : undefined;
}

/** Starts a session for `user`; returns the Set-Cookie header value. */
export async function startSession(ctx: PlatformContext, user: UserRow, secure: boolean): Promise<string> {
  const sessionId = randomBase62(ctx.random, 32);
  const nowMs = ctx.clock.now();
  await ctx.store.sessions.create({
    sessionId,
    userId: user.id,
    csrfToken: randomBase62(ctx.random, 32),
    nowMs,
    expiresAtMs: nowMs + SESSION_TTL_MS,
  });
  return setCookie(SESSION_COOKIE, sessionId, { maxAgeSeconds: SESSION_TTL_MS / 1000, secure });
}

export async function endSession(ctx: PlatformContext, cookies: Map<string, string>, secure: boolean): Promise<string> {
  const id = cookies.get(SESSION_COOKIE);
  if (id) await ctx.store.sessions.delete(id);
  return setCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0, secure });
}

/** Throws unless `submitted` equals `expected`; compared in constant time so it cannot be guessed byte by byte. */
export function checkCsrf(expected: string | undefined, submitted: string | null): void {
  const a = Buffer.from(expected ?? '');
  const b = Buffer.from(submitted ?? '');
  if (a.length === 0 || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ForbiddenError('the form has expired or did not come from this site; reload the page and try again');
  }
}
