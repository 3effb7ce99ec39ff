import type { FeatureSetStore } from './feature-sets.js';
import type { FeatureSetRow } from './records.js';
import { type Database, insertStatement } from './sql.js';

const UNLIMITED = {
  run_task_limit: null,
  run_task_workspace_limit: null,
  run_task_mandatory_enforcement_limit: null,
  policy_set_limit: null,
  policy_limit: null,
  policy_mandatory_enforcement_limit: null,
  versioned_policy_set_limit: null,
} as const;

/**
 * The plan line-up: identifiers, ids, names, prices and entitlements follow the established
 * catalogue; the run/agent ceilings and descriptions are ours. The free plan carries the
 * free-tier limits documented for it in the 2023-05-25 changelog entry.
 */
export const CATALOGUE: readonly FeatureSetRow[] = [
  {
    id: 'fs-EvCGYfpx9CVRzteA',
    position: 1,
    identifier: 'free',
    name: 'Free',
    description: 'State storage, locking, run history, VCS integration, private module registry, and remote operations',
    comparison_description: 'Essential collaboration features for practitioners and small teams.',
    cost: 0,
    plan: null,
    user_limit: 5,
    is_offered: 1,
    is_free_tier: 1,
    self_serve_billing: 1,
    cost_estimation: 0,
    policy_engine: 0,
    run_tasks: 0,
    teams: 0,
    audit_logging: 0,
    sso: 0,
    private_networking: 0,
    default_runs_ceiling: 1,
    default_agents_ceiling: 0,
    run_task_limit: 1,
    run_task_workspace_limit: 10,
    run_task_mandatory_enforcement_limit: 1,
    policy_set_limit: 1,
    policy_limit: 5,
    policy_mandatory_enforcement_limit: 1,
    versioned_policy_set_limit: 0,
  },
  {
    id: 'fs-g5jeyzSkqsK5p3CT',
    position: 2,
    identifier: 'team',
    name: 'Team',
    description: 'Everything in Free, plus team management and more concurrent runs',
    comparison_description: 'Collaboration and team-based access for growing teams.',
    cost: 2000,
    plan: 'plan_G2EBbb4KKcilRs',
    user_limit: null,
    is_offered: 1,
    is_free_tier: 0,
    self_serve_billing: 1,
    cost_estimation: 0,
    policy_engine: 0,
    run_tasks: 0,
    teams: 1,
    audit_logging: 0,
    sso: 0,
    private_networking: 0,
    default_runs_ceiling: 2,
    default_agents_ceiling: 0,
    ...UNLIMITED,
  },
  {
    id: 'fs-EP5Niczf2xKUFDXt',
    position: 3,
    identifier: 'governance',
    name: 'Team & Governance',
    description: 'Everything in Team, plus policy as code, cost estimation and run tasks',
    comparison_description: 'Policy enforcement and cost controls for teams that need governance.',
    cost: 7000,
    plan: null,
    user_limit: null,
    is_offered: 1,
    is_free_tier: 0,
    self_serve_billing: 1,
    cost_estimation: 1,
    policy_engine: 1,
    run_tasks: 1,
    teams: 1,
    audit_logging: 0,
    sso: 0,
    private_networking: 0,
    default_runs_ceiling: 3,
    default_agents_ceiling: 0,
    ...UNLIMITED,
  },
  {
    id: 'fs-4ec3b3RVJWsBkst3',
    position: 4,
    identifier: 'business',
    name: 'Business',
    description: 'Everything in Team & Governance, plus SSO, audit logging and self-hosted agents',
    comparison_description: 'Advanced security, compliance and scale; billed by contract.',
    cost: 0,
    plan: null,
    user_limit: null,
    is_offered: 1,
    is_free_tier: 1,
    self_serve_billing: 0,
    cost_estimation: 1,
    policy_engine: 1,
    run_tasks: 1,
    teams: 1,
    audit_logging: 1,
    sso: 1,
    private_networking: 1,
    default_runs_ceiling: 10,
    default_agents_ceiling: 10,
    ...UNLIMITED,
  },
  {
    id: 'fs-T9BCyZi3KJyWHebk',
    position: 5,
    identifier: 'trial',
    name: 'Trial',
    description: 'Try Team & Governance features for free',
    comparison_description: 'A time-limited trial of the governance features.',
    cost: 0,
    plan: null,
    user_limit: null,
    is_offered: 1,
    is_free_tier: 1,
    self_serve_billing: 1,
    cost_estimation: 1,
    policy_engine: 1,
    run_tasks: 1,
    teams: 1,
    audit_logging: 0,
    sso: 0,
    private_networking: 0,
    default_runs_ceiling: 1,
    default_agents_ceiling: 0,
    ...UNLIMITED,
  },
];

/** The plan every new organization starts on. */
export const FREE_IDENTIFIER = 'free';
/** The self-service trial plan, offered to an organization only until it has used it. */
export const TRIAL_IDENTIFIER = 'trial';
/**
 * How long a trial lasts: its subscription's `end-at` is this long after its `start-at`, and
 * at that moment the organization is back on the free plan. Neither the spec nor the
 * established API states a length; 30 days is the usual term of a self-service trial.
 */
export const TRIAL_LENGTH_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Inserts the catalogue's feature sets that are missing (existing rows are left as they are),
 * in one transaction, then loads the catalogue into memory. Every process seeds the same rows,
 * so processes starting together on one database are harmless to each other.
 */
export async function seedCatalogue(store: { database: Database; featureSets: FeatureSetStore }): Promise<void> {
  await store.database.transaction(async (tx) => {
    for (const row of CATALOGUE) {
      const [insert, params] = insertStatement('feature_sets', { ...row });
      await tx.run(`${insert} ON CONFLICT (id) DO NOTHING`, params);
    }
  });
  await store.featureSets.load(store.database);
}
