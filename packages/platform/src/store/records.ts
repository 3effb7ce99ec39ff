/** Rows as stored: column names are the wire names with `_` for `-`, so mapping stays obvious. */

export interface UserRow {
  id: string;
  username: string;
  email: string;
  is_site_admin: number;
  created_at: number;
}

export interface OrganizationRow {
  id: string;
  name: string;
  email: string;
  created_at: number;
}

export type MembershipRole = 'owner' | 'member';

export interface TokenRow {
  id: string;
  kind: 'user' | 'organization';
  user_id: string | null;
  organization_id: string | null;
  description: string | null;
  created_at: number;
  last_used_at: number | null;
  expired_at: number | null;
}

/** The seven free-tier limits of the 2023-05-25 changelog entry; null means unlimited. */
export const LIMIT_COLUMNS = [
  'run_task_limit',
  'run_task_workspace_limit',
  'run_task_mandatory_enforcement_limit',
  'policy_set_limit',
  'policy_limit',
  'policy_mandatory_enforcement_limit',
  'versioned_policy_set_limit',
] as const;
export type LimitColumn = (typeof LIMIT_COLUMNS)[number];
export type Limits = Record<LimitColumn, number | null>;

/** The feature-set booleans that are entitlements, named as in the spec. */
export const ENTITLEMENT_COLUMNS = [
  'cost_estimation',
  'policy_engine',
  'run_tasks',
  'teams',
  'audit_logging',
  'sso',
  'private_networking',
] as const;
export type EntitlementColumn = (typeof ENTITLEMENT_COLUMNS)[number];

export interface FeatureSetRow extends Limits, Record<EntitlementColumn, number> {
  id: string;
  position: number;
  identifier: string;
  name: string;
  description: string;
  comparison_description: string;
  /** US cents per month. */
  cost: number;
  plan: string | null;
  user_limit: number | null;
  /** Still offered to organizations choosing a plan. */
  is_offered: number;
  is_free_tier: number;
  self_serve_billing: number;
  default_runs_ceiling: number;
  default_agents_ceiling: number;
}

export interface SubscriptionRow extends Limits {
  id: string;
  organization_id: string;
  feature_set_id: string;
  start_at: number;
  end_at: number | null;
  is_active: number;
  runs_ceiling: number;
  agents_ceiling: number;
  contract_start_at: number | null;
  contract_user_limit: number | null;
  contract_apply_limit: number | null;
}
