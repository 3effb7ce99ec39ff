import { ownedOrganization, requireUser, visibleOrganization } from '../auth/principal.js';
import { UnprocessableError } from '../jsonapi/errors.js';
import { paginationMembers, parsePage, slicePage } from '../jsonapi/pagination.js';
import { createOrganization, readNewOrganization } from '../organizations/create-organization.js';
import { currentSubscription } from '../subscriptions/plans.js';
import { entitlementSetResource } from '../subscriptions/resources.js';
import type { ApiRoute } from './api-route.js';
import { attributesOf, EMAIL_PATTERN, requiredString } from './input.js';
import { membershipResource, organizationResource } from './resources.js';

export const organizationRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/organizations',
    handler: async (ctx, req) => {
      const page = parsePage(req.query);
      const p = req.principal;
      const all =
        p.kind === 'user'
          ? await ctx.store.organizations.forUser(p.user.id)
          : [await ctx.store.organizations.get(p.organizationId)];
      const visible = all.filter((o) => o !== undefined);
      return {
        document: {
          data: slicePage(visible, page).map((o) => organizationResource(o, ctx.edition)),
          ...paginationMembers('/api/v2/organizations', page, visible.length),
        },
      };
    },
  },
  {
    method: 'POST',
    pattern: '/organizations',
    handler: async (ctx, req) => {
      const user = requireUser(req.principal);
      const org = await createOrganization(ctx, user, readNewOrganization(attributesOf(req.body, 'organizations')));
      return { status: 201, document: { data: organizationResource(org, ctx.edition) } };
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:organization_name',
    // The established include key is spelled with an underscore.
    includes: ['entitlement_set'],
    handler: async (ctx, req) => {
      const { org } = await visibleOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const data = organizationResource(org, ctx.edition);
      if (!req.include.has('entitlement_set')) return { document: { data } };
      const sub = await currentSubscription(ctx, org.id);
      const fs = sub && ctx.store.featureSets.get(sub.feature_set_id);
      return { document: { data, included: [entitlementSetResource(ctx.edition, org, sub, fs)] } };
    },
  },
  {
    method: 'DELETE',
    pattern: '/organizations/:organization_name',
    handler: async (ctx, req) => {
      const org = await ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      await ctx.store.organizations.delete(org.id);
      ctx.logger.info('organization deleted', { organization: org.name });
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/organizations/:organization_name/organization-memberships',
    handler: async (ctx, req) => {
      const org = await ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const attributes = attributesOf(req.body, 'organization-memberships');
      const email = requiredString(attributes, 'email', {
        pattern: EMAIL_PATTERN,
      });
      const user = await ctx.store.users.byEmail(email);
      // Ward has no invitations by mail: only an existing user can be added.
      if (!user) throw new UnprocessableError('no user has that email address');
      const membership = await ctx.store.organizations.addMember(org.id, user.id, 'member', ctx.clock.now());
      return { status: 201, document: { data: membershipResource(membership, org) } };
    },
  },
];
