import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { InternalError } from '../../logical/errors.js';
import type { HaLock } from '../ha-lock.js';

export interface SqliteHaLockOptions {
  /** The database file (its `ha_lock` table exists: `SqliteStorage` with `hasChangeLog` made it). */
  path: string;
  /** What the holder advertises while it holds the lock. */
  value: string;
  /** How long the row stays valid after the holder's last renewal (a holder that hangs); default 10 s. */
  ttlMs?: number;
  /** How often a waiting process looks at the row; default 100 ms. */
  pollMs?: number;
}

const DEFAULT_TTL_MS = 10_000;
const DEFAULT_POLL_MS = 100;
/** How long a lock statement waits for the file's write lock (the storage writer's fsync holds it). */
const BUSY_TIMEOUT_MS = 2_000;

interface LockRow {
  identity: string;
  value: string;
  pid: number;
  valid_until_ms: number;
}

/**
 * The HA lock of processes sharing one SQLite file on one machine (`workers`): one row in
 * `ha_lock` naming its holder's identity and process id. A waiting process takes the row when it
 * is missing, expired (the holder stopped renewing: it hangs), or held by a process that no longer
 * exists: a holder killed with SIGKILL is replaced at the next poll (100 ms), not after the TTL.
 * The take is one conditional upsert naming the holder it judged gone, so two waiters never both win.
 *
 * The timers and time here are real ones, not the injected clock, as for the PostgreSQL lock:
 * every process on the machine judges expiry by the same system clock.
 */
export class SqliteHaLock implements HaLock {
  readonly #o: Required<SqliteHaLockOptions>;
  readonly #identity = randomUUID();
  readonly #db: Database.Database;
  readonly #lostHandlers: Array<() => void> = [];
  #isReleased = false;
  #isHeld = false;
  #wake: (() => void) | undefined;
  #renewTimer: NodeJS.Timeout | undefined;

  constructor(options: SqliteHaLockOptions) {
    this.#o = { ttlMs: DEFAULT_TTL_MS, pollMs: DEFAULT_POLL_MS, ...options };
    this.#db = new Database(options.path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
    // The row need not survive a power loss: every holder is gone then too.
    this.#db.pragma('synchronous = OFF');
  }

  async acquire(): Promise<void> {
    for (;;) {
      if (this.#isReleased) throw new InternalError('HA lock released while waiting for it');
      if (this.#tryTake()) {
        this.#isHeld = true;
        this.#scheduleRenewal(Date.now());
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, this.#o.pollMs).unref();
      });
      this.#wake = undefined;
    }
  }

  async holder(): Promise<string | undefined> {
    if (!this.#db.open) return undefined;
    const row = this.#row();
    return row && isLive(row, Date.now()) ? row.value : undefined;
  }

  onLost(handler: () => void): void {
    this.#lostHandlers.push(handler);
  }

  /** Stops renewing and deletes the row (if still ours), so a waiting process takes over at its next poll. */
  async release(): Promise<void> {
    if (this.#isReleased) return;
    this.#isReleased = true;
    clearTimeout(this.#renewTimer);
    this.#wake?.();
    try {
      this.#db.prepare('DELETE FROM ha_lock WHERE id = 1 AND identity = ?').run(this.#identity);
    } catch {
      // The row expires by itself, and its process is gone once this one exits.
    }
    this.#db.close();
  }

  #row(): LockRow | undefined {
    return this.#db.prepare<[], LockRow>('SELECT identity, value, pid, valid_until_ms FROM ha_lock WHERE id = 1').get();
  }

  /** Read first (no write lock taken while the holder is alive); write only to take a free row. */
  #tryTake(): boolean {
    const now = Date.now();
    const row = this.#row();
    if (row && row.identity !== this.#identity && isLive(row, now)) return false;
    const validUntil = now + this.#o.ttlMs;
    if (!row) {
      const insert = this.#db.prepare(
        'INSERT INTO ha_lock (id, identity, value, pid, valid_until_ms) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      );
      return insert.run(this.#identity, this.#o.value, process.pid, validUntil).changes === 1;
    }
    // Only if the row still names the holder judged gone: another waiter may have taken it meanwhile.
    const take = this.#db.prepare(
      'UPDATE ha_lock SET identity = ?, value = ?, pid = ?, valid_until_ms = ? WHERE id = 1 AND identity = ?',
    );
    return take.run(this.#identity, this.#o.value, process.pid, validUntil, row.identity).changes === 1;
  }

  /**
   * Renews every third of the TTL. A renewal that fails (the file busy) is tried again at the next
   * tick; the lock counts as lost once another process took the row, or once the TTL since the
   * last renewal that worked is nearly over.
   */
  #scheduleRenewal(lastRenewedAt: number): void {
    const ttlMs = this.#o.ttlMs;
    const deadline = lastRenewedAt + ttlMs - Math.min(1_000, ttlMs / 4);
    this.#renewTimer = setTimeout(
      () => {
        if (this.#isReleased) return;
        const now = Date.now();
        let held: boolean | undefined;
        try {
          const renew = this.#db.prepare('UPDATE ha_lock SET valid_until_ms = ? WHERE id = 1 AND identity = ?');
          held = renew.run(now + ttlMs, this.#identity).changes === 1;
        } catch {
          held = undefined;
        }
        if (held === true) return this.#scheduleRenewal(now);
        if (held === false || Date.now() >= deadline) return this.#lose();
        this.#scheduleRenewal(lastRenewedAt);
      },
      Math.min(ttlMs / 3, Math.max(0, deadline - Date.now())),
    );
    this.#renewTimer.unref();
  }

  #lose(): void {
    if (!this.#isHeld) return;
    this.#isHeld = false;
    this.#isReleased = true;
    this.#db.close();
    for (const handler of this.#lostHandlers) handler();
  }
}

/** Held: renewed within its TTL by a process that still exists on this machine. */
function isLive(row: LockRow, nowMs: number): boolean {
  return row.valid_until_ms >= nowMs && isProcessAlive(row.pid);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, run by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
