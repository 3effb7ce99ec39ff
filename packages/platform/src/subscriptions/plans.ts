import type { PlatformContext } from '../context.js';
import { UnprocessableError } from '../jsonapi/errors.js';
import { newId } from '../store/ids.js';
import { type FeatureSetRow, FREE_IDENTIFIER, type SubscriptionRow, TRIAL_IDENTIFIER } from '../store/index.js';

type Deps = Pick<PlatformContext, 'store' | 'clock' | 'random'>;

/** A new, open-ended subscription of the organization to `featureSet`, taking the plan's ceilings. */
function startSubscription(deps: Deps, organizationId: string, featureSet: FeatureSetRow): SubscriptionRow {
  const row: SubscriptionRow = {
    id: newId(deps.random, 'sub'),
    organization_id: organizationId,
    feature_set_id: featureSet.id,
    start_at: deps.clock.now(),
    end_at: null,
    is_active: 1,
    runs_ceiling: featureSet.default_runs_ceiling,
    agents_ceiling: featureSet.default_agents_ceiling,
    contract_start_at: null,
    contract_user_limit: null,
    contract_apply_limit: null,
    run_task_limit: null,
    run_task_workspace_limit: null,
    run_task_mandatory_enforcement_limit: null,
    policy_set_limit: null,
    policy_limit: null,
    policy_mandatory_enforcement_limit: null,
    versioned_policy_set_limit: null,
  };
  deps.store.subscriptions.insert(row);
  return row;
}

/** Subscribes a new organization to the free plan. Call inside the transaction that creates it. */
export function startOnFreePlan(deps: Deps, organizationId: string): SubscriptionRow {
  const free = deps.store.featureSets.byIdentifier(FREE_IDENTIFIER);
  // The catalogue is seeded when the database opens, so this is a broken database, not a user error.
  if (!free) throw new Error('the feature-set catalogue has no free plan');
  return startSubscription(deps, organizationId, free);
}

/**
 * The plans this organization may choose: every offered plan, except the trial once the
 * organization has had it (unless it is on it now).
 */
export function availablePlans(deps: Pick<PlatformContext, 'store'>, organizationId: string): FeatureSetRow[] {
  const current = deps.store.subscriptions.active(organizationId);
  return deps.store.featureSets
    .offered()
    .filter(
      (fs) =>
        fs.identifier !== TRIAL_IDENTIFIER ||
        fs.id === current?.feature_set_id ||
        !deps.store.subscriptions.hasUsed(organizationId, fs.id),
    );
}

/**
 * Ends the organization's active subscription now and starts one on `featureSetId`, in one
 * transaction, so readers see either the old plan or the new one and never neither.
 */
export function changePlan(
  deps: Deps,
  organizationId: string,
  featureSetId: string,
): { ended: SubscriptionRow | undefined; started: SubscriptionRow } {
  return deps.store.transaction(() => {
    const plan = availablePlans(deps, organizationId).find((fs) => fs.id === featureSetId);
    if (!plan) throw new UnprocessableError('that plan is not available to this organization');
    if (!plan.self_serve_billing) throw new UnprocessableError(`the ${plan.name} plan is arranged with sales`);
    const current = deps.store.subscriptions.active(organizationId);
    if (current?.feature_set_id === plan.id) throw new UnprocessableError(`already on the ${plan.name} plan`);
    if (current) deps.store.subscriptions.end(current.id, deps.clock.now());
    const started = startSubscription(deps, organizationId, plan);
    return { ended: current && { ...current, is_active: 0, end_at: deps.clock.now() }, started };
  });
}
