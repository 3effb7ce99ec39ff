import { ownedOrganization, type Principal, requireUser } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import { NotFoundError } from '../jsonapi/errors.js';
import { paginationMembers, parsePage, slicePage } from '../jsonapi/pagination.js';
import type { Tables, TokenRow, UserRow } from '../store/index.js';
import type { ApiRoute } from './api-route.js';
import { attributesOf, expiryAttribute, optionalString } from './input.js';
import { tokenResource } from './resources.js';

/** User tokens (any number per user, managed only by that user) and the one organization token. */
export const tokenRoutes: ApiRoute[] = [
  {
    method: 'POST',
    pattern: '/users/:user_id/authentication-tokens',
    handler: async (ctx, req) => {
      const caller = requireUser(req.principal);
      const attributes = attributesOf(req.body ?? { data: { type: 'authentication-tokens' } }, 'authentication-tokens');
      const description = optionalString(attributes, 'description') ?? null;
      const nowMs = ctx.clock.now();
      const expiredAtMs = expiryAttribute(attributes, 'expired-at', nowMs);
      const { row, secret } = await ctx.store.transaction(async (tx) => {
        const user = await ownerOrFirstToken(tx, caller, req.params.user_id, nowMs);
        return tx.tokens.createUserToken({ userId: user.id, description, expiredAtMs, nowMs });
      });
      if (row.user_id !== caller.id) {
        // The one exception to "a user's tokens are that user's": kept on record.
        ctx.logger.warn('first token issued by a site administrator', {
          admin: caller.id,
          user: row.user_id,
          issued_id: row.id, // the token's id (at-…), never its secret
        });
      }
      return { status: 201, document: { data: tokenResource(row, secret) } };
    },
  },
  {
    method: 'GET',
    pattern: '/users/:user_id/authentication-tokens',
    handler: async (ctx, req) => {
      const page = parsePage(req.query);
      const user = selfUser(req.principal, req.params.user_id);
      const all = await ctx.store.tokens.forUser(user.id);
      return {
        document: {
          data: slicePage(all, page).map((t) => tokenResource(t)),
          ...paginationMembers(`/api/v2/users/${user.id}/authentication-tokens`, page, all.length),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/authentication-tokens/:id',
    handler: async (ctx, req) => ({
      document: { data: tokenResource(await ownToken(ctx, req.principal, req.params.id)) },
    }),
  },
  {
    method: 'DELETE',
    pattern: '/authentication-tokens/:id',
    handler: async (ctx, req) => {
      await ctx.store.tokens.delete((await ownToken(ctx, req.principal, req.params.id)).id);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/organizations/:organization_name/authentication-token',
    handler: async (ctx, req) => {
      // Only an owner's user token may mint it: an organization token cannot renew itself.
      const org = await ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const attributes = req.body === undefined ? {} : attributesOf(req.body, 'authentication-token');
      const nowMs = ctx.clock.now();
      const expiredAtMs = expiryAttribute(attributes, 'expired-at', nowMs);
      const { row, secret } = await ctx.store.transaction((tx) =>
        tx.tokens.replaceOrganizationToken({ organizationId: org.id, expiredAtMs, nowMs }),
      );
      return { status: 201, document: { data: tokenResource(row, secret) } };
    },
  },
  {
    method: 'DELETE',
    pattern: '/organizations/:organization_name/authentication-token',
    handler: async (ctx, req) => {
      const org = await ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      if (!(await ctx.store.tokens.deleteOrganizationToken(org.id))) throw new NotFoundError();
      return { status: 204 };
    },
  },
];

/** The user named in the path, who must be the caller: nobody manages another user's tokens. */
function selfUser(principal: Principal, userId: string | undefined) {
  const user = requireUser(principal);
  if (user.id !== userId) throw new NotFoundError();
  return user;
}

/**
 * The user named in the path when the caller is that user, or a site administrator handing that
 * user a first token: Ward has no password sign-in, so a new user gets one from an administrator.
 * Once the user holds a working token, only they make more (as the established platform, where a
 * user's tokens are that user's alone); otherwise an administrator could act as anyone at will.
 * A user whose every token is deleted or expired can be given a first token again.
 */
async function ownerOrFirstToken(tx: Tables, caller: UserRow, userId: string | undefined, nowMs: number) {
  if (caller.id === userId) return caller;
  const user = caller.is_site_admin === 1 ? await tx.users.get(userId ?? '') : undefined;
  if (!user) throw new NotFoundError();
  const tokens = await tx.tokens.forUser(user.id);
  if (tokens.some((t) => t.expired_at === null || t.expired_at > nowMs)) throw new NotFoundError();
  return user;
}

async function ownToken(ctx: PlatformContext, principal: Principal, id: string | undefined): Promise<TokenRow> {
  const user = requireUser(principal);
  const token = await ctx.store.tokens.get(id ?? '');
  if (!token || token.user_id !== user.id) throw new NotFoundError();
  return token;
}
