import { ConnectionPool } from '../../engines/ldap/index.js';
import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { lockoutFromOptions } from '../common/index.js';
import { pathConfig } from './path-config.js';
import { pathLogin } from './path-login.js';
import { pathMappings } from './path-mappings.js';

const HELP =
  'The LDAP auth method logs directory users in with their password (`login/<username>`); the policies come ' +
  'from `users/` and `groups/` (the LDAP groups of the user).';

/** Factory of the `ldap` auth method; mount options are the lockout options of userpass. */
export function createLdapAuthBackend(ctx: BackendContext): Backend {
  const pool = new ConnectionPool(ctx.clock);
  const lockout = lockoutFromOptions(ctx.clock, ctx.options);
  return createBackend({
    type: 'ldap',
    storage: ctx.storage,
    help: HELP,
    paths: [pathConfig(() => pool.drop()), ...pathMappings(), pathLogin({ pool, clock: ctx.clock, lockout })],
    specialPaths: { unauthenticated: ['login/*'] },
    cleanup: () => pool.close(),
    lockout: { lockedUsers: () => lockout.locked(), unlockUser: (name) => lockout.unlock(name) },
  });
}
