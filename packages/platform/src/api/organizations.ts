import { ownedOrganization, requireUser, visibleOrganization } from '../auth/principal.js';
import { UnprocessableError } from '../jsonapi/errors.js';
import { paginationMembers, parsePage, slicePage } from '../jsonapi/pagination.js';
import { startOnFreePlan } from '../subscriptions/plans.js';
import { entitlementSetResource } from '../subscriptions/resources.js';
import type { ApiRoute } from './api-route.js';
import { attributesOf, EMAIL_PATTERN, NAME_PATTERN, requiredString } from './input.js';
import { membershipResource, organizationResource } from './resources.js';

export const organizationRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/organizations',
    handler: (ctx, req) => {
      const page = parsePage(req.query);
      const p = req.principal;
      const all =
        p.kind === 'user'
          ? ctx.store.organizations.forUser(p.user.id)
          : [ctx.store.organizations.get(p.organizationId)];
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
    handler: (ctx, req) => {
      const user = requireUser(req.principal);
      const attributes = attributesOf(req.body, 'organizations');
      const name = requiredString(attributes, 'name', {
        pattern: NAME_PATTERN,
        hint: 'may hold only letters, digits, "-" and "_" (at most 40)',
      });
      const email = requiredString(attributes, 'email', {
        pattern: EMAIL_PATTERN,
      });
      // The organization, its owner and its free subscription appear together or not at all.
      const org = ctx.store.transaction(() => {
        if (ctx.store.organizations.byName(name)) throw new UnprocessableError('name has already been taken');
        const created = ctx.store.organizations.create({ name, email, nowMs: ctx.clock.now() });
        ctx.store.organizations.addMember(created.id, user.id, 'owner', ctx.clock.now());
        startOnFreePlan(ctx, created.id);
        return created;
      });
      ctx.logger.info('organization created', { organization: org.name, user: user.username });
      return { status: 201, document: { data: organizationResource(org, ctx.edition) } };
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:organization_name',
    // The established include key is spelled with an underscore.
    includes: ['entitlement_set'],
    handler: (ctx, req) => {
      const { org } = visibleOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const data = organizationResource(org, ctx.edition);
      if (!req.include.has('entitlement_set')) return { document: { data } };
      const sub = ctx.store.subscriptions.active(org.id);
      const fs = sub && ctx.store.featureSets.get(sub.feature_set_id);
      return { document: { data, included: [entitlementSetResource(ctx.edition, org, sub, fs)] } };
    },
  },
  {
    method: 'DELETE',
    pattern: '/organizations/:organization_name',
    handler: (ctx, req) => {
      const org = ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      ctx.store.organizations.delete(org.id);
      ctx.logger.info('organization deleted', { organization: org.name });
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: '/organizations/:organization_name/organization-memberships',
    handler: (ctx, req) => {
      const org = ownedOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const attributes = attributesOf(req.body, 'organization-memberships');
      const email = requiredString(attributes, 'email', {
        pattern: EMAIL_PATTERN,
      });
      const user = ctx.store.users.byEmail(email);
      // Ward has no invitations by mail: only an existing user can be added.
      if (!user) throw new UnprocessableError('no user has that email address');
      const membership = ctx.store.organizations.addMember(org.id, user.id, 'member', ctx.clock.now());
      return { status: 201, document: { data: membershipResource(membership, org) } };
    },
  },
];
