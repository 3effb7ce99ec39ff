import { UpstreamError } from '../../logical/errors.js';
import { type DatabaseDeps, requireConfig } from './deps.js';
import { newPassword } from './passwords.js';
import { requireRoleAllowed } from './path-config.js';
import { requirePlugin } from './plugins.js';
import { type StaticRole, staticRoles } from './role-store.js';
import { nextScheduled } from './schedule.js';
import { selfManagedSession } from './self-managed.js';
import { renderStatements } from './statements.js';

/** How often the schedule is checked (as established: every 5 s). */
export const ROTATION_CHECK_INTERVAL_MS = 5_000;
/** First retry after a failed rotation; doubles with each further failure, up to the role's period. */
const RETRY_BASE_MS = 10_000;

/** When a role rotated (or created) at `nowMs` rotates next, and the end of that time's rotation window. */
export function nextRotation(
  role: Pick<StaticRole, 'rotation_period' | 'rotation_schedule' | 'rotation_window'>,
  nowMs: number,
): Pick<StaticRole, 'next_rotation_ms' | 'rotation_window_end_ms'> {
  if (!role.rotation_schedule)
    return { next_rotation_ms: nowMs + role.rotation_period * 1000, rotation_window_end_ms: 0 };
  const next = nextScheduled(role.rotation_schedule, nowMs);
  return {
    next_rotation_ms: next,
    rotation_window_end_ms: role.rotation_window ? next + role.rotation_window * 1000 : 0,
  };
}

/**
 * Sets a new password for the role's user and saves it in the role. A write-ahead record holds
 * the new password from before the database changes until the role is saved: a rotation after
 * a crash in between reuses it, so the password the database has is never lost.
 * A failure is recorded in the role (`last_rotation_error`, retry with backoff) and rethrown.
 */
export async function rotateStaticRole(d: DatabaseDeps, name: string, role: StaticRole): Promise<StaticRole> {
  const now = d.clock.now();
  try {
    const config = await requireConfig(d.storage, role.db_name);
    requireRoleAllowed(config, name);
    const wal = await staticRoles.getWal(d.storage, name);
    const password = wal?.password ?? (await newPassword(config.password_policy, d.random, d.system));
    if (!wal) await staticRoles.putWal(d.storage, name, { password });
    const plugin = requirePlugin(config.plugin_name);
    const session = role.self_managed
      ? await selfManagedSession(d, config, role, wal?.password)
      : (await d.connections.get(d.storage, role.db_name, config)).session;
    const statements =
      role.rotation_statements.length > 0 ? role.rotation_statements : plugin.defaultRotationStatements;
    const values = new Map([
      ['name', role.username],
      ['username', role.username],
      ['password', password],
    ]);
    try {
      await session?.transaction(renderStatements(statements, values)).catch((err: Error) => {
        throw new UpstreamError(`failed to rotate the password of "${role.username}": ${err.message}`, { cause: err });
      });
    } finally {
      if (role.self_managed) await session?.close().catch(() => {});
    }
    const rotated: StaticRole = {
      ...role,
      password,
      last_rotation_ms: now,
      ...nextRotation(role, now),
      failures: 0,
      last_rotation_error: '',
    };
    await staticRoles.put(d.storage, name, rotated);
    await staticRoles.deleteWal(d.storage, name);
    return rotated;
  } catch (err) {
    await recordFailure(d, name, role, now, err);
    throw err;
  }
}

async function recordFailure(d: DatabaseDeps, name: string, role: StaticRole, now: number, err: unknown) {
  const failures = role.failures + 1;
  const periodMs = role.rotation_period ? role.rotation_period * 1000 : 3_600_000;
  const retryMs = Math.min(RETRY_BASE_MS * 2 ** Math.min(failures - 1, 20), periodMs);
  const message = err instanceof Error ? err.message : String(err);
  d.logger.warn('static role rotation failed', { role: name, failures, error: message });
  const current = await staticRoles.get(d.storage, name);
  // Deleted meanwhile, or never saved (a failed create): nothing to reschedule.
  if (current) {
    await staticRoles.put(d.storage, name, {
      ...current,
      failures,
      last_rotation_error: message,
      next_rotation_ms: now + retryMs,
    });
  }
}

/** One pass of the schedule: rotates every role that is due or has a rotation left half done by a crash. */
export async function rotateDueRoles(d: DatabaseDeps): Promise<void> {
  for (const name of await staticRoles.list(d.storage)) {
    await d.locks
      .run(`static:${name}`, async () => {
        const role = await staticRoles.get(d.storage, name);
        if (!role) return;
        const now = d.clock.now();
        const isDue = role.next_rotation_ms <= now;
        const hasWal = (await staticRoles.getWal(d.storage, name)) !== undefined;
        if (isDue && !hasWal && role.rotation_window_end_ms && now > role.rotation_window_end_ms) {
          // As established: a rotation that did not happen within its window waits for the next scheduled time.
          d.logger.warn('static role rotation window passed; waiting for the next scheduled time', { role: name });
          await staticRoles.put(d.storage, name, { ...role, ...nextRotation(role, now) });
          return;
        }
        if (isDue || hasWal) await rotateStaticRole(d, name, role);
      })
      // Already logged and recorded in the role; one role's failure must not hold up the others.
      .catch(() => {});
  }
}
