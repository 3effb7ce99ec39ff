import { UpstreamError } from '../../logical/errors.js';
import type { DatabaseConfig } from './config-store.js';
import { openSession } from './connections.js';
import type { DatabaseDeps } from './deps.js';
import { requirePlugin } from './plugins.js';
import type { StaticRole } from './role-store.js';
import type { SqlSession } from './sql-session.js';

/** A one-connection session as the role's own user, with `password`. */
function ownSession(d: DatabaseDeps, config: DatabaseConfig, role: StaticRole, password: string): SqlSession {
  const own = { ...config, username: role.username, max_open_connections: 1, max_idle_connections: 1 };
  return openSession(requirePlugin(config.plugin_name), own, password, d);
}

/**
 * The session a self-managed role's rotation runs its statements in: its user logged in with the
 * password the role holds. When that is refused but `walPassword` works, the database already
 * has the new password (a crash after the change, before the save): `undefined` then, nothing to run.
 */
export async function selfManagedSession(
  d: DatabaseDeps,
  config: DatabaseConfig,
  role: StaticRole,
  walPassword: string | undefined,
): Promise<SqlSession | undefined> {
  const current = ownSession(d, config, role, role.password);
  try {
    await current.ping();
    return current;
  } catch (err) {
    await current.close().catch(() => {});
    if (walPassword !== undefined) {
      const changed = ownSession(d, config, role, walPassword);
      const isChanged = await changed.ping().then(
        () => true,
        () => false,
      );
      await changed.close().catch(() => {});
      if (isChanged) return undefined;
    }
    throw new UpstreamError(
      `failed to log in as "${role.username}" with its self-managed password: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}
