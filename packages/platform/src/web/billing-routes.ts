import type { PlatformContext } from '../context.js';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../jsonapi/errors.js';
import type { OrganizationRow } from '../store/index.js';
import { availablePlans, changePlan, currentSubscription } from '../subscriptions/plans.js';
import { billingPage } from './billing-view.js';
import { confirmPage } from './confirm-view.js';
import type { Chrome } from './html.js';
import { checkCsrf, currentSession, type SignedIn } from './session.js';
import type { WebReply, WebRequest, WebRoute } from './web-route.js';

const BILLING = '/app/:organization_name/settings/billing';

/** The billing settings: the only place a plan changes. Hosted edition only. */
export const billingRoutes: WebRoute[] = [
  {
    method: 'GET',
    pattern: BILLING,
    handler: async (ctx, req) =>
      asOwner(ctx, req, async (org, signedIn) => {
        const subscription = await currentSubscription(ctx, org.id);
        const current = subscription && ctx.store.featureSets.get(subscription.feature_set_id);
        if (!subscription || !current) throw new NotFoundError('this organization has no subscription');
        const plans = await availablePlans(ctx, org.id);
        return {
          kind: 'page',
          html: billingPage({
            org,
            subscription,
            current,
            plans,
            changedTo: req.query.get('changed'),
            now: ctx.clock.now(),
            chrome: chrome(org, signedIn, 'billing'),
          }),
        };
      }),
  },
  {
    method: 'GET',
    pattern: `${BILLING}/confirm`,
    handler: async (ctx, req) =>
      asOwner(ctx, req, async (org, signedIn) => {
        const subscription = await currentSubscription(ctx, org.id);
        const from = subscription && ctx.store.featureSets.get(subscription.feature_set_id);
        const to = (await availablePlans(ctx, org.id)).find((fs) => fs.id === req.query.get('feature_set'));
        if (!subscription || !from || !to) {
          throw new UnprocessableError('choose one of the plans offered on the billing page');
        }
        return {
          kind: 'page',
          html: confirmPage({ org, subscription, from, to, chrome: chrome(org, signedIn, null) }),
        };
      }),
  },
  {
    method: 'POST',
    pattern: BILLING,
    handler: async (ctx, req) =>
      asOwner(ctx, req, async (org, signedIn) => {
        checkCsrf(signedIn.csrfToken, req.form.get('authenticity_token'));
        const { started } = await changePlan(ctx, org.id, req.form.get('feature_set') ?? '');
        const plan = ctx.store.featureSets.get(started.feature_set_id);
        ctx.logger.info('plan changed', {
          organization: org.name,
          user: signedIn.user.username,
          plan: plan?.identifier,
        });
        // Post/redirect/get: reloading the result page must not submit the change again.
        return {
          kind: 'redirect',
          location: `/app/${encodeURIComponent(org.name)}/settings/billing?changed=${encodeURIComponent(plan?.identifier ?? '')}`,
        };
      }),
  },
];

function chrome(org: OrganizationRow, signedIn: SignedIn, current: Chrome['current']): Chrome {
  return { username: signedIn.user.username, csrfToken: signedIn.csrfToken, organizationName: org.name, current };
}

/**
 * Runs `fn` for a signed-in owner of the organization. Signed out: off to sign in and back.
 * Not a member: 404, as in the API. A member who is not an owner already knows the
 * organization exists, so is told plainly (403).
 */
async function asOwner(
  ctx: PlatformContext,
  req: WebRequest,
  fn: (org: OrganizationRow, signedIn: SignedIn) => Promise<WebReply>,
): Promise<WebReply> {
  const signedIn = await currentSession(ctx, req.cookies);
  if (!signedIn) {
    const back = `/app/${encodeURIComponent(req.params.organization_name ?? '')}/settings/billing`;
    return { kind: 'redirect', location: `/app/session/new?return_to=${encodeURIComponent(back)}` };
  }
  const org = await ctx.store.organizations.byName(req.params.organization_name ?? '');
  const role = org && (await ctx.store.organizations.membership(org.id, signedIn.user.id))?.role;
  if (!org || !role) throw new NotFoundError();
  if (role !== 'owner') throw new ForbiddenError('only owners of this organization can manage its billing');
  return fn(org, signedIn);
}
