import type { PlatformContext } from '../context.js';
import { UnprocessableError } from '../jsonapi/errors.js';
import { newId } from '../store/ids.js';
import {
  type FeatureSetRow,
  FREE_IDENTIFIER,
  type Store,
  type SubscriptionRow,
  type Tables,
  TRIAL_IDENTIFIER,
  TRIAL_LENGTH_MS,
} from '../store/index.js';

type Deps = Pick<PlatformContext, 'clock' | 'random'> & { store: Tables };

/**
 * A new subscription of the organization to `featureSet` from `startAt`, taking the plan's
 * ceilings: open-ended, except a trial, which ends `TRIAL_LENGTH_MS` later.
 */
async function startSubscription(
  deps: Deps,
  organizationId: string,
  featureSet: FeatureSetRow,
  startAt = deps.clock.now(),
): Promise<SubscriptionRow> {
  const row: SubscriptionRow = {
    id: newId(deps.random, 'sub'),
    organization_id: organizationId,
    feature_set_id: featureSet.id,
    start_at: startAt,
    end_at: featureSet.identifier === TRIAL_IDENTIFIER ? startAt + TRIAL_LENGTH_MS : null,
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
  await deps.store.subscriptions.insert(row);
  return row;
}

/** Subscribes a new organization to the free plan. Call inside the transaction that creates it. */
export function startOnFreePlan(deps: Deps, organizationId: string, startAt?: number): Promise<SubscriptionRow> {
  const free = deps.store.featureSets.byIdentifier(FREE_IDENTIFIER);
  // The catalogue is seeded when the database opens, so this is a broken database, not a user error.
  if (!free) throw new Error('the feature-set catalogue has no free plan');
  return startSubscription(deps, organizationId, free, startAt);
}

const hasRunOut = (sub: SubscriptionRow | undefined, nowMs: number): sub is SubscriptionRow =>
  sub?.end_at != null && sub.end_at <= nowMs;

/**
 * The organization's subscription in force now. A subscription whose term has run out (a
 * trial past its `end-at`) is ended at that moment and the organization is on the free plan
 * from then on: done when it is next looked at, in one transaction, so every reader (API,
 * billing page, entitlements) sees the same plan and no background job is needed.
 */
export async function currentSubscription(
  deps: Pick<PlatformContext, 'clock' | 'random'> & { store: Pick<Store, 'transaction' | 'subscriptions'> },
  organizationId: string,
): Promise<SubscriptionRow | undefined> {
  const active = await deps.store.subscriptions.active(organizationId);
  if (!hasRunOut(active, deps.clock.now())) return active;
  return deps.store.transaction(async (tx) => {
    await tx.organizations.lock(organizationId);
    return endRunOutTerm({ clock: deps.clock, random: deps.random, store: tx }, organizationId);
  });
}

/** Inside a transaction holding the organization's lock: `currentSubscription`'s rule. */
async function endRunOutTerm(deps: Deps, organizationId: string): Promise<SubscriptionRow | undefined> {
  const active = await deps.store.subscriptions.active(organizationId);
  if (!hasRunOut(active, deps.clock.now())) return active;
  const endedAt = active.end_at as number;
  await deps.store.subscriptions.end(active.id, endedAt);
  return startOnFreePlan(deps, organizationId, endedAt);
}

/**
 * The plans this organization may choose: every offered plan, except the trial once the
 * organization has had it (unless it is on it now).
 */
export async function availablePlans(deps: { store: Tables }, organizationId: string): Promise<FeatureSetRow[]> {
  const current = await deps.store.subscriptions.active(organizationId);
  const plans: FeatureSetRow[] = [];
  for (const fs of deps.store.featureSets.offered()) {
    const isChoosable =
      fs.identifier !== TRIAL_IDENTIFIER ||
      fs.id === current?.feature_set_id ||
      !(await deps.store.subscriptions.hasUsed(organizationId, fs.id));
    if (isChoosable) plans.push(fs);
  }
  return plans;
}

/**
 * Ends the organization's active subscription now and starts one on `featureSetId`, in one
 * transaction, so readers see either the old plan or the new one and never neither. The
 * organization's row is locked first: a second change (from another process too) waits, then
 * sees the first one's result, so two changes never leave two active subscriptions (the
 * partial unique index would refuse that anyway).
 */
export function changePlan(
  deps: Pick<PlatformContext, 'clock' | 'random'> & { store: Pick<Store, 'transaction'> },
  organizationId: string,
  featureSetId: string,
): Promise<{ ended: SubscriptionRow | undefined; started: SubscriptionRow }> {
  return deps.store.transaction(async (tx) => {
    const inTx: Deps = { clock: deps.clock, random: deps.random, store: tx };
    if (!(await tx.organizations.lock(organizationId))) throw new UnprocessableError('the organization is gone');
    await endRunOutTerm(inTx, organizationId);
    const plan = (await availablePlans(inTx, organizationId)).find((fs) => fs.id === featureSetId);
    if (!plan) throw new UnprocessableError('that plan is not available to this organization');
    if (!plan.self_serve_billing) throw new UnprocessableError(`the ${plan.name} plan is arranged with sales`);
    const current = await tx.subscriptions.active(organizationId);
    if (current?.feature_set_id === plan.id) throw new UnprocessableError(`already on the ${plan.name} plan`);
    const nowMs = deps.clock.now();
    if (current) await tx.subscriptions.end(current.id, nowMs);
    const started = await startSubscription(inTx, organizationId, plan);
    return { ended: current && { ...current, is_active: 0, end_at: nowMs }, started };
  });
}
