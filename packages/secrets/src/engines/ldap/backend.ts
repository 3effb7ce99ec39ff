import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { ConnectionPool } from './connection-pool.js';
import { dynamicCredsSecret, pathCreds } from './dynamic-creds.js';
import { pathConfig } from './path-config.js';
import { pathLibrary } from './path-library.js';
import { checkoutSecret, pathLibraryCheckout } from './path-library-checkout.js';
import { pathRoles } from './path-roles.js';
import { pathRotateRoot } from './path-rotate-root.js';
import { pathStaticCred } from './path-static-cred.js';
import { pathStaticRoles } from './path-static-roles.js';
import { ROTATION_CHECK_INTERVAL_MS, type RotationDeps, rotateDueRoles } from './static-rotation.js';

const HELP =
  'The directory (LDAP) engine manages passwords in an LDAP directory (OpenLDAP, Active Directory, RACF): ' +
  'it rotates its own bind password (`rotate-root`) and the passwords of existing entries on a schedule ' +
  '(static roles), creates short-lived accounts from LDIF templates under a lease (dynamic roles), and lends ' +
  'existing accounts one borrower at a time, rotating each password at check-in (library sets).';

/** Factory of the `ldap` engine (also mounted as `openldap`). */
export function createLdapBackend(ctx: BackendContext): Backend {
  const deps: RotationDeps = {
    storage: ctx.storage,
    clock: ctx.clock,
    random: ctx.random,
    system: ctx.system,
    logger: ctx.logger,
    locks: new KeyedMutex(),
    setLocks: new KeyedMutex(),
    managedLock: new KeyedMutex(),
    pool: new ConnectionPool(ctx.clock),
  };
  return createBackend({
    type: 'ldap',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathConfig(deps.pool),
      pathRotateRoot(deps),
      ...pathStaticRoles(deps),
      ...pathStaticCred(deps),
      ...pathRoles(deps),
      pathCreds(deps),
      ...pathLibraryCheckout(deps),
      ...pathLibrary(deps),
    ],
    secrets: [dynamicCredsSecret(deps), checkoutSecret(deps)],
    cleanup: () => deps.pool.close(),
    periodic: [
      { name: 'rotate-static-roles', intervalMs: ROTATION_CHECK_INTERVAL_MS, run: () => rotateDueRoles(deps) },
    ],
  });
}
