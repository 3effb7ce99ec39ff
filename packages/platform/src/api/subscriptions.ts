import { visibleOrganization } from '../auth/principal.js';
import type { PlatformContext } from '../context.js';
import { NotFoundError } from '../jsonapi/errors.js';
import type { OrganizationRow, SubscriptionRow } from '../store/index.js';
import { currentSubscription } from '../subscriptions/plans.js';
import { subscriptionDocument } from '../subscriptions/resources.js';
import type { ApiReply, ApiRoute } from './api-route.js';

/** Read-only: the router answers 405 to any other method on these paths. Hosted edition only. */
export const subscriptionRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/organizations/:organization_name/subscription',
    // Always in `included`; naming it is allowed and changes nothing.
    includes: ['feature_set'],
    handler: async (ctx, req) => {
      const { org } = await visibleOrganization(ctx, req.principal, req.params.organization_name ?? '');
      const sub = await currentSubscription(ctx, org.id);
      if (!sub) throw new NotFoundError();
      return reply(ctx, sub, org);
    },
  },
  {
    method: 'GET',
    pattern: '/subscriptions/:id',
    includes: ['feature_set'],
    handler: async (ctx, req) => {
      const sub = await ctx.store.subscriptions.get(req.params.id ?? '');
      const org = sub && (await ctx.store.organizations.get(sub.organization_id));
      if (!sub || !org) throw new NotFoundError();
      // Same 404 as an unknown id when the caller cannot see the organization.
      await visibleOrganization(ctx, req.principal, org.name);
      return reply(ctx, sub, org);
    },
  },
];

async function reply(ctx: PlatformContext, sub: SubscriptionRow, org: OrganizationRow): Promise<ApiReply> {
  const fs = ctx.store.featureSets.get(sub.feature_set_id);
  if (!fs) throw new Error(`subscription ${sub.id} names missing feature set ${sub.feature_set_id}`);
  const current = sub.is_active === 1 ? sub : await currentSubscription(ctx, org.id);
  return { document: subscriptionDocument(sub, org, fs, current?.feature_set_id) };
}
