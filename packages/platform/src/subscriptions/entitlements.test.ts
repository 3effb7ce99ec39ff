import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATALOGUE, type SubscriptionRow } from '../store/index.js';
import { entitlementAttributes } from './entitlements.js';

const free = CATALOGUE.find((fs) => fs.identifier === 'free');
const business = CATALOGUE.find((fs) => fs.identifier === 'business');
const sub = (overrides: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  id: 'sub-x',
  organization_id: 'org-x',
  feature_set_id: free?.id ?? '',
  start_at: 0,
  end_at: null,
  is_active: 1,
  runs_ceiling: 1,
  agents_ceiling: 0,
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
  ...overrides,
});

describe('entitlementAttributes', () => {
  it('takes limits from the plan unless the subscription overrides them', () => {
    const a = entitlementAttributes('hosted', sub({ policy_limit: 50, contract_user_limit: 12 }), free);
    assert.equal(a['policy-limit'], 50);
    assert.equal(a['policy-set-limit'], 1);
    assert.equal(a['user-limit'], 12);
  });

  it('follows the plan booleans and gives agents with private networking', () => {
    const a = entitlementAttributes('hosted', sub(), business);
    assert.equal(a.agents, true);
    assert.equal(a.sso, true);
    assert.equal(a['self-serve-billing'], false);
    assert.equal(entitlementAttributes('hosted', sub(), free).agents, false);
  });

  it('entitles everything without limits in the self-hosted edition', () => {
    const a = entitlementAttributes('self-hosted', sub(), free);
    assert.equal(a['policy-engine'], true);
    assert.equal(a['run-task-limit'], null);
    assert.equal(a['user-limit'], null);
  });
});
