import type { Edition } from '../context.js';
import { type ResourceObject, timestamp } from '../jsonapi/document.js';
import type { FeatureSetRow, OrganizationRow, SubscriptionRow } from '../store/index.js';
import { ENTITLEMENT_COLUMNS, FREE_IDENTIFIER, LIMIT_COLUMNS, type Limits, TRIAL_IDENTIFIER } from '../store/index.js';
import { entitlementAttributes, limitAttributes, wireName } from './entitlements.js';

const ENTITLEMENTS = ENTITLEMENT_COLUMNS.map((c) => [c, wireName(c)] as const);

/** The seven limits as the global catalogue shows them: limits apply to an organization on the plan. */
const NO_LIMITS = Object.freeze(limitAttributes(Object.fromEntries(LIMIT_COLUMNS.map((c) => [c, null])) as Limits));

/**
 * A feature set as a JSON:API resource. `isCurrent` is whether it is the plan of the
 * organization being looked at (or, in the global list, whether it is still offered). The
 * seven free-tier limits carry the plan's numbers when an organization is in view; the global
 * list shows them all null, as the established API does (`forOrganization` false).
 */
export function featureSetResource(fs: FeatureSetRow, isCurrent: boolean, forOrganization = true): ResourceObject {
  const entitlements: Record<string, boolean> = {};
  for (const [column, name] of ENTITLEMENTS) entitlements[name] = fs[column] === 1;
  return {
    id: fs.id,
    type: 'feature-sets',
    attributes: {
      name: fs.name,
      identifier: fs.identifier,
      description: fs.description,
      'comparison-description': fs.comparison_description,
      cost: fs.cost,
      plan: fs.plan,
      'user-limit': fs.user_limit,
      'is-current': isCurrent,
      'is-free-tier': fs.is_free_tier === 1,
      'self-serve-billing': fs.self_serve_billing === 1,
      ...entitlements,
      // The established names of the spec's `policy-engine`, for clients that read those.
      'policy-enforcement': fs.policy_engine === 1,
      sentinel: fs.policy_engine === 1,
      'default-runs-ceiling': fs.default_runs_ceiling,
      'default-agents-ceiling': fs.default_agents_ceiling,
      ...(forOrganization ? limitAttributes(fs) : NO_LIMITS),
    },
  };
}

/** The subscription document: the resource, and its feature set in `included`. */
export function subscriptionDocument(
  sub: SubscriptionRow,
  org: OrganizationRow,
  fs: FeatureSetRow,
  currentFeatureSetId: string | undefined,
) {
  const data: ResourceObject = {
    id: sub.id,
    type: 'subscriptions',
    attributes: {
      'start-at': timestamp(sub.start_at),
      'end-at': timestamp(sub.end_at),
      'is-active': sub.is_active === 1,
      'runs-ceiling': sub.runs_ceiling,
      'agents-ceiling': sub.agents_ceiling,
      'contract-start-at': timestamp(sub.contract_start_at),
      'contract-user-limit': sub.contract_user_limit,
      'contract-apply-limit': sub.contract_apply_limit,
      ...limitAttributes(sub),
      'is-public-free-tier': fs.identifier === FREE_IDENTIFIER,
      'is-self-serve-trial': fs.identifier === TRIAL_IDENTIFIER,
    },
    relationships: {
      organization: { data: { id: org.name, type: 'organizations' } },
      'billing-account': { data: null },
      'feature-set': { data: { id: fs.id, type: 'feature-sets' } },
    },
    links: { self: `/api/v2/subscriptions/${sub.id}` },
  };
  return { data, included: [featureSetResource(fs, fs.id === currentFeatureSetId)] };
}

/** The organization's entitlement set; its id is the organization's external id. */
export function entitlementSetResource(
  edition: Edition,
  org: OrganizationRow,
  sub: SubscriptionRow | undefined,
  fs: FeatureSetRow | undefined,
): ResourceObject {
  return {
    id: org.id,
    type: 'entitlement-sets',
    attributes: entitlementAttributes(edition, sub, fs),
    links: { self: `/api/v2/entitlement-sets/${org.id}` },
  };
}
