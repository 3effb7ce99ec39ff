/** The `database` engine: PostgreSQL and MySQL/MariaDB connections, dynamic and static roles. @module */
import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { Connections } from './connections.js';
import type { DatabaseDeps } from './deps.js';
import { credsSecret, pathCreds } from './dynamic-creds.js';
import { pathConfig, pathListConfig } from './path-config.js';
import { pathReload, pathReset, pathRotateRoot } from './path-connection-ops.js';
import { pathListRoles, pathRoles } from './path-roles.js';
import { pathRotateRole, pathStaticCreds } from './path-static-creds.js';
import { pathListStaticRoles, pathStaticRoles } from './path-static-roles.js';
import { ROTATION_CHECK_INTERVAL_MS, rotateDueRoles } from './static-rotation.js';
import { UsernameTemplates } from './usernames.js';
import { sweepCredsWal, WAL_SWEEP_INTERVAL_MS } from './wal-sweep.js';

const HELP =
  'The database engine issues database users under a lease (dynamic roles: created per request, ' +
  'dropped when the lease ends) and rotates the passwords of existing users (static roles), ' +
  'in PostgreSQL and MySQL/MariaDB.';

/** Factory of the `database` engine. */
export function createDatabaseBackend(ctx: BackendContext): Backend {
  const d: DatabaseDeps = {
    storage: ctx.storage,
    clock: ctx.clock,
    random: ctx.random,
    system: ctx.system,
    logger: ctx.logger,
    connections: new Connections({ clock: ctx.clock, random: ctx.random }),
    locks: new KeyedMutex(),
    instanceId: Buffer.from(ctx.random.bytes(16)).toString('hex'),
  };
  const usernames = new UsernameTemplates(d);
  return createBackend({
    type: 'database',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathListConfig(),
      pathConfig(d),
      pathReset(d),
      pathReload(d),
      pathRotateRoot(d),
      pathListRoles(),
      pathRoles(usernames),
      pathCreds(d, usernames),
      pathListStaticRoles(),
      pathStaticRoles(d),
      pathStaticCreds(d),
      pathRotateRole(d),
    ],
    secrets: [credsSecret(d)],
    cleanup: async () => {
      await d.connections.closeAll();
    },
    periodic: [
      { name: 'rotate-static-roles', intervalMs: ROTATION_CHECK_INTERVAL_MS, run: () => rotateDueRoles(d) },
      { name: 'sweep-creds-wal', intervalMs: WAL_SWEEP_INTERVAL_MS, run: () => sweepCredsWal(d) },
    ],
  });
}
