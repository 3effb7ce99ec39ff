import { type Backend, type BackendContext, createBackend, KeyedMutex } from '../../framework/index.js';
import { lockoutFromOptions, renewalUnder } from '../common/index.js';
import type { AppRoleDeps } from './deps.js';
import { pathLogin } from './path-login.js';
import { pathRole, pathRoleId, pathRoleList } from './path-role.js';
import { pathRoleFields } from './path-role-field.js';
import { pathCustomSecretId, pathSecretId, pathSecretIdList } from './path-secret-id.js';
import { pathSecretIdAccessor, pathSecretIdLookup } from './path-secret-id-lookup.js';
import { pathTidySecretId } from './path-tidy.js';
import { RoleStore } from './role-store.js';
import { SaltedDigest } from './salted-digest.js';
import { SecretIdStore } from './secret-id-store.js';

const HELP =
  'The AppRole auth method logs machines and services in with a role id (which names the ' +
  'role) and a secret id (which proves the caller may use it). Roles live under `role/`; ' +
  '`login` needs no token.';

/** Factory of the `approle` auth method. Mount options: the lockout options (`lockoutFromOptions`). */
export function createAppRoleBackend(ctx: BackendContext): Backend {
  const digest = new SaltedDigest(ctx.storage, ctx.random);
  const lockout = lockoutFromOptions(ctx.clock, ctx.options);
  const d: AppRoleDeps = {
    clock: ctx.clock,
    random: ctx.random,
    roles: new RoleStore(digest),
    secretIds: new SecretIdStore(digest),
    lockout,
    roleLocks: new KeyedMutex(),
  };
  return createBackend({
    type: 'approle',
    storage: ctx.storage,
    help: HELP,
    paths: [
      pathRoleList(d),
      pathRole(d),
      pathRoleId(d),
      ...pathRoleFields(d),
      pathSecretIdList(d),
      pathSecretId(d),
      pathCustomSecretId(d),
      ...pathSecretIdLookup(d),
      ...pathSecretIdAccessor(d),
      pathLogin(d),
      pathTidySecretId(d),
    ],
    specialPaths: { unauthenticated: ['login'] },
    // Renewal re-reads the role: current TTLs apply, a changed policy set stops renewal.
    async renewLogin({ metadata, policies }) {
      const role = metadata.role_name ? await d.roles.get(ctx.storage, metadata.role_name) : undefined;
      if (!role) return null;
      return renewalUnder(role.token, policies);
    },
    lockout: { lockedUsers: () => lockout.locked(), unlockUser: (roleId) => lockout.unlock(roleId) },
  });
}
