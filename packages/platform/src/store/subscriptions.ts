import type { Db } from './database.js';
import type { SubscriptionRow } from './records.js';

export class SubscriptionStore {
  readonly #insert;
  readonly #active;
  readonly #byId;
  readonly #end;
  readonly #hasUsed;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO subscriptions (id, organization_id, feature_set_id, start_at, end_at, is_active, runs_ceiling,
         agents_ceiling, contract_start_at, contract_user_limit, contract_apply_limit, run_task_limit,
         run_task_workspace_limit, run_task_mandatory_enforcement_limit, policy_set_limit, policy_limit,
         policy_mandatory_enforcement_limit, versioned_policy_set_limit)
       VALUES (@id, @organization_id, @feature_set_id, @start_at, @end_at, @is_active, @runs_ceiling,
         @agents_ceiling, @contract_start_at, @contract_user_limit, @contract_apply_limit, @run_task_limit,
         @run_task_workspace_limit, @run_task_mandatory_enforcement_limit, @policy_set_limit, @policy_limit,
         @policy_mandatory_enforcement_limit, @versioned_policy_set_limit)`,
    );
    this.#active = db.prepare<[string], SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE organization_id = ? AND is_active = 1',
    );
    this.#byId = db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?');
    this.#end = db.prepare('UPDATE subscriptions SET is_active = 0, end_at = ? WHERE id = ? AND is_active = 1');
    this.#hasUsed = db.prepare<[string, string], number>(
      'SELECT count(*) FROM subscriptions WHERE organization_id = ? AND feature_set_id = ?',
    );
    this.#hasUsed.pluck();
  }

  insert(row: SubscriptionRow): void {
    this.#insert.run(row);
  }

  /** The organization's subscription in force, if any. */
  active(organizationId: string): SubscriptionRow | undefined {
    return this.#active.get(organizationId);
  }

  get(id: string): SubscriptionRow | undefined {
    return this.#byId.get(id);
  }

  /** Ends an active subscription at `endAtMs`; returns false if it was not active. */
  end(id: string, endAtMs: number): boolean {
    return this.#end.run(endAtMs, id).changes === 1;
  }

  /** Whether the organization has ever been subscribed to the feature set. */
  hasUsed(organizationId: string, featureSetId: string): boolean {
    return (this.#hasUsed.get(organizationId, featureSetId) ?? 0) > 0;
  }
}
