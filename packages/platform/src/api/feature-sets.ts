import { visibleOrganization } from '../auth/principal.js';
import { paginationMembers, parsePage, slicePage } from '../jsonapi/pagination.js';
import { availablePlans, currentSubscription } from '../subscriptions/plans.js';
import { entitlementSetResource, featureSetResource } from '../subscriptions/resources.js';
import type { ApiRoute } from './api-route.js';

/** The plan catalogue; hosted edition only. */
export const featureSetRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/feature-sets',
    handler: async (ctx, req) => {
      const page = parsePage(req.query);
      // Every listed set is offered, so in this list `is-current` is always true; no organization
      // is in view, so the limits are null (the organization list gives the numbers).
      const all = ctx.store.featureSets.offered();
      return {
        document: {
          data: slicePage(all, page).map((fs) => featureSetResource(fs, true, false)),
          ...paginationMembers('/api/v2/feature-sets', page, all.length),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:organization_name/feature-sets',
    handler: async (ctx, req) => {
      const page = parsePage(req.query);
      const { org } = await visibleOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const current = (await currentSubscription(ctx, org.id))?.feature_set_id;
      const all = await availablePlans(ctx, org.id);
      return {
        document: {
          data: slicePage(all, page).map((fs) => featureSetResource(fs, fs.id === current)),
          ...paginationMembers(`/api/v2/organizations/${encodeURIComponent(org.name)}/feature-sets`, page, all.length),
        },
      };
    },
  },
];

/** Exists in both editions: the self-hosted one reports its licence (everything, no limits). */
export const entitlementSetRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/organizations/:organization_name/entitlement-set',
    handler: async (ctx, req) => {
      const { org } = await visibleOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const sub = await currentSubscription(ctx, org.id);
      const fs = sub && ctx.store.featureSets.get(sub.feature_set_id);
      return { document: { data: entitlementSetResource(ctx.edition, org, sub, fs) } };
    },
  },
];
