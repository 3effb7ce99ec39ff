import { createTokenBackend } from '../auth/token/index.js';
import type { BackendContext } from '../framework/index.js';
import { createView } from './barrier/index.js';
import type { Core } from './core.js';
import type { MountEntry } from './router/mount-table.js';
import { SYSTEM_DEFAULT_LEASE_TTL_SECONDS, SYSTEM_MAX_LEASE_TTL_SECONDS } from './router/mounts.js';
import type { Route } from './router/router.js';

/**
 * The routes every unsealed server has and no table stores: the system backend at `sys/`
 * and the token store at `auth/token/`. Built at unseal, over that unseal's services.
 */
export function builtinRoutes(core: Core): Route[] {
  const context = (mount: string, entry: MountEntry): BackendContext => ({
    storage: createView(core.barrier, mount === 'sys/' ? 'sys/' : `auth/${entry.uuid}/`),
    logger: core.logger.child({ mount }),
    clock: core.clock,
    random: core.deps.random,
    options: {},
    system: {
      defaultLeaseTtlSeconds: () => entry.config.default_lease_ttl || SYSTEM_DEFAULT_LEASE_TTL_SECONDS,
      maxLeaseTtlSeconds: () => entry.config.max_lease_ttl || SYSTEM_MAX_LEASE_TTL_SECONDS,
    },
  });
  const tokenBackend = createTokenBackend(core.tokens, context('auth/token/', TOKEN_AUTH_ENTRY), {
    hasSudo: async (req, path) => {
      const policies = req.caller?.policies ?? [];
      if (policies.includes('root')) return true;
      return (await core.policies().acl(policies)).allowed('update', `auth/token/${path}`).isSudo;
    },
    policyExists: async (name) => (await core.policies().read(name)) !== undefined,
  });
  return [
    {
      mountPoint: 'sys/',
      entry: SYSTEM_MOUNT_ENTRY,
      backend: core.deps.systemBackend(core, context('sys/', SYSTEM_MOUNT_ENTRY)),
    },
    { mountPoint: 'auth/token/', entry: TOKEN_AUTH_ENTRY, backend: tokenBackend },
  ];
}

/** How `sys/` appears in mount listings; it is built in and never stored in the table. */
export const SYSTEM_MOUNT_ENTRY: MountEntry = {
  path: 'sys/',
  type: 'system',
  description: 'system endpoints used for control, policy and debugging',
  accessor: 'system_00000000',
  uuid: '00000000-0000-4000-8000-000000000000',
  local: false,
  seal_wrap: true,
  external_entropy_access: false,
  options: null,
  config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false },
};

/** How the token store appears in `sys/auth`. */
export const TOKEN_AUTH_ENTRY: MountEntry = {
  ...SYSTEM_MOUNT_ENTRY,
  path: 'token/',
  type: 'token',
  description: 'token based credentials',
  accessor: 'auth_token_00000000',
  uuid: '00000000-0000-4000-8000-000000000001',
  seal_wrap: false,
};
