import type { SubscriptionRow } from './records.js';
import { insertStatement, type Sql } from './sql.js';

export class SubscriptionStore {
  constructor(private readonly sql: Sql) {}

  async insert(row: SubscriptionRow): Promise<void> {
    await this.sql.run(...insertStatement('subscriptions', { ...row }));
  }

  /** The organization's subscription in force, if any. */
  active(organizationId: string): Promise<SubscriptionRow | undefined> {
    return this.sql.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE organization_id = ? AND is_active = 1', [
      organizationId,
    ]);
  }

  get(id: string): Promise<SubscriptionRow | undefined> {
    return this.sql.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?', [id]);
  }

  /** Ends an active subscription at `endAtMs`; returns false if it was not active. */
  async end(id: string, endAtMs: number): Promise<boolean> {
    const changed = await this.sql.run(
      'UPDATE subscriptions SET is_active = 0, end_at = ? WHERE id = ? AND is_active = 1',
      [endAtMs, id],
    );
    return changed === 1;
  }

  /** Whether the organization has ever been subscribed to the feature set. */
  async hasUsed(organizationId: string, featureSetId: string): Promise<boolean> {
    const row = await this.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM subscriptions WHERE organization_id = ? AND feature_set_id = ?',
      [organizationId, featureSetId],
    );
    return (row?.n ?? 0) > 0;
  }
}
