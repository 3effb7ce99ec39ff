/** Who an API request acts as: a user (a user token) or one organization (its token), from `Authorization: Bearer`. @module */
import type { PlatformContext } from '../context.js';
import { NotFoundError, UnauthorizedError } from '../jsonapi/errors.js';
import type { MembershipRole, OrganizationRow, UserRow } from '../store/index.js';

/** Who an API request acts as: a user (user token) or one organization (its token). */
export type Principal = ({ kind: 'user'; user: UserRow } | { kind: 'organization'; organizationId: string }) & {
  /** Until when this authentication holds without asking the token store again (expiry, next `last-used-at`). */
  recheckAtMs: number;
};

/** Writing `last-used-at` on every request would make each read a write; a minute is precise enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The token in `Authorization: Bearer <token>`, or undefined when the header is missing or malformed. */
export function bearerSecret(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
}

/** The principal behind `Authorization: Bearer <token>`; anything missing, unknown or expired is a 401. */
export async function authenticate(ctx: PlatformContext, authorization: string | undefined): Promise<Principal> {
  const secret = bearerSecret(authorization);
  if (!secret) throw new UnauthorizedError('a bearer token is required');
  const token = await ctx.store.tokens.bySecret(secret);
  const nowMs = ctx.clock.now();
  if (!token || (token.expired_at !== null && token.expired_at <= nowMs)) {
    throw new UnauthorizedError('the token is unknown or expired');
  }
  let lastUsedMs = token.last_used_at;
  if (lastUsedMs === null || nowMs - lastUsedMs >= LAST_USED_RESOLUTION_MS) {
    await ctx.store.tokens.touch(token.id, nowMs);
    lastUsedMs = nowMs;
  }
  const recheckAtMs = Math.min(token.expired_at ?? Number.POSITIVE_INFINITY, lastUsedMs + LAST_USED_RESOLUTION_MS);
  if (token.kind === 'organization' && token.organization_id) {
    return { kind: 'organization', organizationId: token.organization_id, recheckAtMs };
  }
  const user = token.user_id ? await ctx.store.users.get(token.user_id) : undefined;
  if (!user) throw new UnauthorizedError('the token is unknown or expired');
  return { kind: 'user', user, recheckAtMs };
}

/** How the principal relates to an organization it can see. */
export type Access = MembershipRole | 'organization-token';

/**
 * The organization named `name` (case-insensitively) if the principal can see it. An unknown
 * organization and one the principal has no tie to are the same 404, so names are not leaked.
 */
export async function visibleOrganization(
  ctx: PlatformContext,
  principal: Principal,
  name: string,
): Promise<{ org: OrganizationRow; access: Access }> {
  const org = await ctx.store.organizations.byName(name);
  if (org) {
    if (principal.kind === 'organization') {
      if (principal.organizationId === org.id) return { org, access: 'organization-token' };
    } else {
      const role = (await ctx.store.organizations.membership(org.id, principal.user.id))?.role;
      if (role) return { org, access: role };
    }
  }
  throw new NotFoundError();
}

/** Like `visibleOrganization`, but only for an owner; everyone else gets the same 404. */
export async function ownedOrganization(
  ctx: PlatformContext,
  principal: Principal,
  name: string,
): Promise<OrganizationRow> {
  const { org, access } = await visibleOrganization(ctx, principal, name);
  if (access !== 'owner') throw new NotFoundError();
  return org;
}

/** The user behind a user token; an organization token is refused with the usual 404. */
export function requireUser(principal: Principal): UserRow {
  if (principal.kind !== 'user') throw new NotFoundError();
  return principal.user;
}
