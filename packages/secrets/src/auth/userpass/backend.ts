import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import { lockoutFromOptions, optionInt, renewalUnder } from '../common/index.js';
import type { UserpassDeps } from './deps.js';
import { DEFAULT_BCRYPT_COST, PasswordHasher } from './passwords.js';
import { pathLogin } from './path-login.js';
import { pathUserPassword, pathUserPolicies, pathUsers, pathUsersList } from './path-users.js';
import { userStore } from './user-store.js';

const HELP =
  'The userpass auth method logs users in with a username and password. Users and their ' +
  'token settings live under `users/`; `login/<username>` needs no token.';

/**
 * Factory of the `userpass` auth method. Mount options: `bcrypt_cost` (default 10) and the
 * lockout options (`lockoutFromOptions`).
 */
export function createUserpassBackend(ctx: BackendContext): Backend {
  const { options } = ctx;
  const lockout = lockoutFromOptions(ctx.clock, options);
  const d: UserpassDeps = {
    hasher: new PasswordHasher(optionInt(options, 'bcrypt_cost', DEFAULT_BCRYPT_COST)),
    lockout,
  };
  return createBackend({
    type: 'userpass',
    storage: ctx.storage,
    help: HELP,
    paths: [pathUsersList(), pathUserPassword(d), pathUserPolicies(), pathUsers(d), pathLogin(d)],
    specialPaths: { unauthenticated: ['login/*'] },
    // Renewal re-reads the user: current TTLs apply, and a changed policy set stops renewal.
    async renewLogin({ metadata, policies }) {
      const user = metadata.username ? await userStore.get(ctx.storage, metadata.username) : undefined;
      if (!user) return null;
      return renewalUnder(user.token, policies);
    },
    lockout: { lockedUsers: () => lockout.locked(), unlockUser: (name) => lockout.unlock(name.toLowerCase()) },
  });
}
