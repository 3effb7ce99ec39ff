import type { Clock, Logger, Random } from '@ward/base';
import type { KeyedMutex, SystemView } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { configStore, type LdapConfig } from './config-store.js';
import type { ConnectionPool } from './connection-pool.js';
import { newPassword } from './passwords.js';
import { type StaticRole, staticRoles } from './static-role-store.js';

/** How often the schedule is checked (as established: every 5 s). */
export const ROTATION_CHECK_INTERVAL_MS = 5_000;
/** First retry after a failed rotation; doubles with each further failure, up to the role's period. */
const RETRY_BASE_MS = 10_000;

export interface RotationDeps {
  storage: Storage;
  clock: Clock;
  random: Random;
  system: SystemView;
  logger: Logger;
  /** Per role name: a scheduled and a manual rotation of one role never overlap. */
  locks: KeyedMutex;
  /** Per library set name: two check-outs of one set never take the same account. */
  setLocks: KeyedMutex;
  /** One key (`MANAGED_ACCOUNTS`): static roles and library sets take an account one at a time. */
  managedLock: KeyedMutex;
  /** The mount's bound directory connections. */
  pool: ConnectionPool;
}

/** Which password settings made a WAL password: a config change in between discards it. */
function generatorOf(config: LdapConfig): string {
  return config.password_policy ? `policy:${config.password_policy}` : `length:${config.length}`;
}

/** The config, or 400 when the engine is not configured. */
export async function requireConfig(storage: Storage): Promise<LdapConfig> {
  const config = await configStore.get(storage);
  if (!config) throw new InvalidRequestError('missing LDAP configuration');
  return config;
}

/** Reads the config again, for a bind that the stored password no longer opens (a rotate-root under way). */
export const reload = (storage: Storage) => () => configStore.get(storage);

/**
 * Sets a new password on the role's entry and saves it in the role. A WAL record holds the
 * new password from before the directory changes until the role is saved: a rotation after
 * a crash in between reuses it, so the password the directory has is never lost.
 * A failure is recorded in the role (`last_rotation_error`, retry with backoff) and rethrown.
 */
export async function rotateStaticRole(d: RotationDeps, name: string, role: StaticRole): Promise<StaticRole> {
  const now = d.clock.now();
  try {
    const config = await requireConfig(d.storage);
    const generator = generatorOf(config);
    const wal = await staticRoles.getWal(d.storage, name);
    const password = wal?.generator === generator ? wal.password : await newPassword(config, d.random, d.system);
    if (wal?.password !== password) await staticRoles.putWal(d.storage, name, { password, generator });
    await d.pool.use(config, reload(d.storage), (directory) =>
      directory.setPassword(role.dn ? { dn: role.dn } : { username: role.username }, password),
    );
    const rotated: StaticRole = {
      ...role,
      last_password: role.password,
      password,
      last_rotation_ms: now,
      next_rotation_ms: now + role.rotation_period * 1000,
      failures: 0,
      last_rotation_error: '',
    };
    await staticRoles.put(d.storage, name, rotated);
    await staticRoles.deleteWal(d.storage, name);
    return rotated;
  } catch (err) {
    const failures = role.failures + 1;
    const retryMs = Math.min(RETRY_BASE_MS * 2 ** Math.min(failures - 1, 20), role.rotation_period * 1000);
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
    throw err;
  }
}

/** One pass of the schedule: rotates every role that is due or has a rotation left half done by a crash. */
export async function rotateDueRoles(d: RotationDeps): Promise<void> {
  for (const name of await staticRoles.listAll(d.storage)) {
    await d.locks
      .run(name, async () => {
        const role = await staticRoles.get(d.storage, name);
        if (!role) return;
        const isDue = role.next_rotation_ms <= d.clock.now();
        if (isDue || (await staticRoles.getWal(d.storage, name))) await rotateStaticRole(d, name, role);
      })
      // Already logged and recorded in the role; one role's failure must not hold up the others.
      .catch(() => {});
  }
}
