import { ENTITLEMENT_COLUMNS, type FeatureSetRow, LIMIT_COLUMNS, type SubscriptionRow } from '../store/index.js';

/** How the page names each feature; a Record, so a new entitlement column needs a label to compile. */
export const FEATURE_LABELS: Record<(typeof ENTITLEMENT_COLUMNS)[number], string> = {
  cost_estimation: 'Cost estimation',
  policy_engine: 'Policy enforcement',
  run_tasks: 'Run tasks',
  teams: 'Teams',
  audit_logging: 'Audit logging',
  sso: 'Single sign-on',
  private_networking: 'Private networking and agents',
};

export const LIMIT_LABELS: Record<(typeof LIMIT_COLUMNS)[number], string> = {
  run_task_limit: 'Run tasks',
  run_task_workspace_limit: 'Workspaces per run task',
  run_task_mandatory_enforcement_limit: 'Mandatory run tasks',
  policy_set_limit: 'Policy sets',
  policy_limit: 'Policies',
  policy_mandatory_enforcement_limit: 'Mandatory policies',
  versioned_policy_set_limit: 'Versioned policy sets',
};

/**
 * The feature each limit belongs to: a limit of a feature the plan does not include reads
 * "Not included", as that feature's row in the comparison does, not a number that cannot apply.
 */
export const LIMIT_FEATURE: Record<(typeof LIMIT_COLUMNS)[number], (typeof ENTITLEMENT_COLUMNS)[number]> = {
  run_task_limit: 'run_tasks',
  run_task_workspace_limit: 'run_tasks',
  run_task_mandatory_enforcement_limit: 'run_tasks',
  policy_set_limit: 'policy_engine',
  policy_limit: 'policy_engine',
  policy_mandatory_enforcement_limit: 'policy_engine',
  versioned_policy_set_limit: 'policy_engine',
};

/** A limit of the plan (the subscription's own value winning), or "Not included" with its feature off. */
export function limitValue(c: (typeof LIMIT_COLUMNS)[number], fs: FeatureSetRow, sub?: SubscriptionRow): string {
  if (fs[LIMIT_FEATURE[c]] !== 1) return 'Not included';
  return limitText(sub?.[c] ?? fs[c]);
}

/** The plan's price as a person reads it; costs are stored in US cents per month. */
export function price(fs: FeatureSetRow): string {
  if (!fs.self_serve_billing) return 'By contract (contact sales)';
  return fs.cost === 0 ? 'Free' : `US$${(fs.cost / 100).toFixed(2)} per month`;
}

export const limitText = (n: number | null): string => (n === null ? 'Unlimited' : String(n));

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** "1 March 2024, 12:00 UTC": dates on the page are for people; the `datetime` attribute keeps ISO 8601. */
export function readableDate(ms: number): string {
  return `${DATE_FORMAT.format(ms).replace(' at ', ', ')} UTC`;
}

/** One numeric term of a plan as the organization has it (or would have it), in page order. */
export interface Term {
  label: string;
  value: string;
}

/**
 * Every numeric term and its value: price, users, runs, agents and the seven limits. With a
 * subscription, its own values (contract overrides, ceilings) win over the plan's defaults.
 */
export function numericTerms(fs: FeatureSetRow, sub?: SubscriptionRow): Term[] {
  return [
    { label: 'Price', value: price(fs) },
    { label: 'Users', value: limitText(sub?.contract_user_limit ?? fs.user_limit) },
    { label: 'Concurrent runs', value: String(sub?.runs_ceiling ?? fs.default_runs_ceiling) },
    { label: 'Self-hosted agents', value: String(sub?.agents_ceiling ?? fs.default_agents_ceiling) },
    ...LIMIT_COLUMNS.map((c) => ({ label: LIMIT_LABELS[c], value: limitValue(c, fs, sub) })),
  ];
}

/** Each feature and whether the plan includes it. */
export function featureTerms(fs: FeatureSetRow): Term[] {
  return ENTITLEMENT_COLUMNS.map((c) => ({
    label: FEATURE_LABELS[c],
    value: fs[c] === 1 ? 'Included' : 'Not included',
  }));
}
