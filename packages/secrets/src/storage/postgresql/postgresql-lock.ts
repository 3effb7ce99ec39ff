import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { InternalError } from '../../logical/errors.js';
import type { HaLock } from '../ha-lock.js';

export interface PostgresHaLockOptions {
  pool: pg.Pool;
  /** The quoted lock table (`ha_table`). */
  table: string;
  /** The lock's row (`ha_key`); the established servers use `core/lock`. */
  key: string;
  /** What the holder advertises while it holds the lock. */
  value: string;
  /** How long the row stays valid after the holder's last renewal, by the database's clock. */
  ttlSeconds: number;
}

/** How long a waiting server waits between attempts (as established). */
const RETRY_MS = 1_000;

/**
 * The established PostgreSQL HA lock: a row in the ha table whose `valid_until` the holder keeps
 * pushing forward (every third of the TTL). A server takes the row when it is free, expired, or
 * its own, in one upsert judged by the database's clock, so the servers' own clocks do not matter.
 *
 * The timers here are real ones, not the injected clock: the lock's life is measured by the
 * database's clock, so renewing must follow real time whatever clock the server is given.
 */
export class PostgresHaLock implements HaLock {
  readonly #o: PostgresHaLockOptions;
  readonly #identity = randomUUID();
  readonly #lostHandlers: Array<() => void> = [];
  #isReleased = false;
  #wake: (() => void) | undefined;
  #renewTimer: NodeJS.Timeout | undefined;

  constructor(options: PostgresHaLockOptions) {
    this.#o = options;
  }

  async acquire(): Promise<void> {
    for (;;) {
      if (this.#isReleased) throw new InternalError('HA lock released while waiting for it');
      const sentAt = Date.now();
      if (await this.#writeRow()) {
        this.#scheduleRenewal(sentAt);
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, RETRY_MS).unref();
      });
      this.#wake = undefined;
    }
  }

  async holder(): Promise<string | undefined> {
    const { rows } = await this.#o.pool.query<{ ha_value: string }>(
      `SELECT ha_value FROM ${this.#o.table} WHERE NOW() <= valid_until AND ha_key = $1`,
      [this.#o.key],
    );
    return rows[0]?.ha_value;
  }

  onLost(handler: () => void): void {
    this.#lostHandlers.push(handler);
  }

  /** Stops renewing and deletes the row (if still ours), so another server takes over at its next attempt. */
  async release(): Promise<void> {
    this.#isReleased = true;
    clearTimeout(this.#renewTimer);
    this.#wake?.();
    await this.#o.pool
      .query(`DELETE FROM ${this.#o.table} WHERE ha_identity = $1 AND ha_key = $2`, [this.#identity, this.#o.key])
      .catch(() => {});
  }

  /** Takes the row if free, expired or already ours; whether this server holds it now. */
  async #writeRow(): Promise<boolean> {
    const { table, key, value, ttlSeconds } = this.#o;
    const result = await this.#o.pool.query(
      `INSERT INTO ${table} AS t (ha_identity, ha_key, ha_value, valid_until)
         VALUES ($1, $2, $3, NOW() + $4 * INTERVAL '1 second')
       ON CONFLICT (ha_key) DO UPDATE SET (ha_identity, ha_key, ha_value, valid_until) =
         ($1, $2, $3, NOW() + $4 * INTERVAL '1 second')
       WHERE (t.valid_until < NOW() AND t.ha_key = $2) OR (t.ha_identity = $1 AND t.ha_key = $2)`,
      [this.#identity, key, value, ttlSeconds],
    );
    return result.rowCount === 1;
  }

  /**
   * Renews every third of the TTL. A renewal that fails is tried again at the next tick; the lock
   * counts as lost once another server took it, or once the TTL since the last renewal that worked
   * (counted from when it was sent, so never later than the database's own expiry) is nearly over.
   */
  #scheduleRenewal(lastSentAt: number): void {
    const ttlMs = this.#o.ttlSeconds * 1_000;
    const deadline = lastSentAt + ttlMs - Math.min(1_000, ttlMs / 4);
    this.#renewTimer = setTimeout(
      async () => {
        if (this.#isReleased) return;
        const sentAt = Date.now();
        let held: boolean | undefined;
        try {
          held = await this.#writeRow();
        } catch {
          held = undefined;
        }
        if (this.#isReleased) return;
        if (held === true) return this.#scheduleRenewal(sentAt);
        if (held === false || Date.now() >= deadline) return this.#lose();
        this.#scheduleRenewal(lastSentAt);
      },
      Math.min(ttlMs / 3, Math.max(0, deadline - Date.now())),
    );
    this.#renewTimer.unref();
  }

  #lose(): void {
    this.#isReleased = true;
    for (const handler of this.#lostHandlers) handler();
  }
}
