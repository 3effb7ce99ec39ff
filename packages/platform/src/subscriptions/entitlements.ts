/** Plans, feature sets and the entitlements an organization's subscription grants. @module */
import type { Edition } from '../context.js';
import type { Attributes } from '../jsonapi/document.js';
import {
  type FeatureSetRow,
  LIMIT_COLUMNS,
  type LimitColumn,
  type Limits,
  type SubscriptionRow,
} from '../store/index.js';

/** `run_task_limit` → `run-task-limit`. */
export const wireName = (column: string): string => column.replaceAll('_', '-');

/** Column and wire name of each limit, worked out once: this runs on every subscription read. */
const LIMITS = LIMIT_COLUMNS.map((c) => [c, wireName(c)] as const);

/** The seven limit attributes of a row, null meaning unlimited. */
export function limitAttributes(limits: Limits): Attributes {
  const out: Attributes = {};
  for (const [column, name] of LIMITS) out[name] = limits[column];
  return out;
}

/**
 * What an organization may use, computed from its active subscription and that subscription's
 * feature set:
 * - entitlements shared by name with the feature set come from it; `policy-enforcement` and
 *   the deprecated `sentinel` repeat the spec's `policy-engine`, as established clients read them;
 * - `agents` follows `private-networking`;
 * - the base features (operations, state storage, ...) are on every plan;
 * - a limit set on the subscription (a contract override) wins over the plan's;
 * - the self-hosted edition is licensed as a whole, so it entitles everything without limits.
 */
export function entitlementAttributes(
  edition: Edition,
  subscription: SubscriptionRow | undefined,
  featureSet: FeatureSetRow | undefined,
): Attributes {
  const has = (v: number | undefined) => edition === 'self-hosted' || v === 1;
  const policy = has(featureSet?.policy_engine);
  const limits: Attributes = {};
  for (const c of LIMIT_COLUMNS)
    limits[wireName(c)] = edition === 'self-hosted' ? null : limit(c, subscription, featureSet);
  return {
    agents: has(featureSet?.private_networking),
    'audit-logging': has(featureSet?.audit_logging),
    'configuration-designer': true,
    'cost-estimation': has(featureSet?.cost_estimation),
    operations: true,
    'policy-engine': policy,
    'policy-enforcement': policy,
    sentinel: policy,
    'private-module-registry': true,
    'private-networking': has(featureSet?.private_networking),
    'run-tasks': has(featureSet?.run_tasks),
    'self-serve-billing': edition === 'hosted' && featureSet?.self_serve_billing === 1,
    sso: has(featureSet?.sso),
    'state-storage': true,
    teams: has(featureSet?.teams),
    'usage-reporting': has(featureSet?.audit_logging),
    'user-limit':
      edition === 'self-hosted' ? null : (subscription?.contract_user_limit ?? featureSet?.user_limit ?? null),
    'vcs-integrations': true,
    ...limits,
  };
}

function limit(
  column: LimitColumn,
  subscription: SubscriptionRow | undefined,
  featureSet: FeatureSetRow | undefined,
): number | null {
  return subscription?.[column] ?? featureSet?.[column] ?? null;
}
