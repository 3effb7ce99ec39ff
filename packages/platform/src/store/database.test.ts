import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { appliedMigrations, CATALOGUE, openStore, seedCatalogue } from './index.js';
import { MIGRATIONS } from './migrations.js';

describe('database', () => {
  it('keeps data across a close and reopen, applying each migration once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-platform-'));
    try {
      const path = join(dir, 'platform.db');
      const first = openStore(path, new SeededRandom(1));
      seedCatalogue(first);
      const org = first.organizations.create({ name: 'acme', email: 'a@example.com', nowMs: 5 });
      first.close();

      const second = openStore(path, new SeededRandom(2));
      seedCatalogue(second);
      assert.deepEqual(second.organizations.byName('acme'), org);
      assert.equal(second.featureSets.offered().length, CATALOGUE.length);
      assert.deepEqual(
        appliedMigrations(second.db),
        MIGRATIONS.map((m) => m.version),
      );
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a second active subscription for one organization', () => {
    const store = openStore(':memory:', new SeededRandom(1));
    seedCatalogue(store);
    const org = store.organizations.create({ name: 'acme', email: 'a@example.com', nowMs: 0 });
    const row = {
      organization_id: org.id,
      feature_set_id: CATALOGUE[0]?.id ?? '',
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
    };
    store.subscriptions.insert({ ...row, id: 'sub-1' });
    assert.throws(() => store.subscriptions.insert({ ...row, id: 'sub-2' }), /UNIQUE/);
    store.subscriptions.insert({ ...row, id: 'sub-3', is_active: 0, end_at: 1 });
    store.close();
  });
});
