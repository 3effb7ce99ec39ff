import { createTokenBackend } from '../auth/token/index.js';
import type { BackendContext } from '../framework/index.js';
import { createIdentityBackend } from '../identity/index.js';
import { createView } from './barrier/index.js';
import type { Core } from './core.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { MountEntry } from './router/mount-table.js';
import { SYSTEM_DEFAULT_LEASE_TTL_SECONDS, SYSTEM_MAX_LEASE_TTL_SECONDS } from './router/mounts.js';
import type { Route } from './router/router.js';
import { RoleStore } from './tokens/index.js';

/**
 * The routes every namespace has and no table stores: the system backend at `<ns>sys/`
 * and the token store at `<ns>auth/token/`. Built when a namespace opens (at unseal for
 * every namespace, or when one is created).
 */
export function builtinRoutes(core: Core, ns: Namespace): Route[] {
  const context = (mount: string, entry: MountEntry): BackendContext => ({
    storage: createView(core.barrier, mount === 'sys/' ? 'sys/' : `auth/${entry.uuid}/`),
    logger: core.logger.child({ mount: `${ns.path}${mount}` }),
    clock: core.clock,
    random: core.deps.random,
    options: {},
    system: {
      defaultLeaseTtlSeconds: () => entry.config.default_lease_ttl || SYSTEM_DEFAULT_LEASE_TTL_SECONDS,
      maxLeaseTtlSeconds: () => entry.config.max_lease_ttl || SYSTEM_MAX_LEASE_TTL_SECONDS,
    },
  });
  const services = core.namespaceServices();
  const tokenBackend = createTokenBackend(core.tokens, context('auth/token/', TOKEN_AUTH_ENTRY), {
    // `path` is the full request path; policies of this namespace speak of paths below it.
    hasSudo: async (req, path) => {
      const policies = req.caller?.policies ?? [];
      if (policies.includes('root')) return true;
      const acl = await services.policies(ns.id).acl(policies);
      return acl.allowed('update', path.slice(ns.path.length)).isSudo;
    },
    policyExists: async (name) => (await services.policies(ns.id).read(name)) !== undefined,
    namespaceId: ns.id,
    // Below `namespaces/<id>/` outside root, so deleting a namespace erases its roles too.
    roles: ns.path === '' ? core.tokens.roles : new RoleStore(createView(core.barrier, `namespaces/${ns.id}/token/`)),
    identityPolicies: (entityId) => {
      const entity = entityId ? services.identity(ns.id).entity(entityId) : undefined;
      return entity ? services.identity(ns.id).identityPolicies(entity) : [];
    },
  });
  return [
    {
      mountPoint: `${ns.path}sys/`,
      entry: SYSTEM_MOUNT_ENTRY,
      backend: core.deps.systemBackend(services.systemView(ns), context('sys/', SYSTEM_MOUNT_ENTRY)),
    },
    { mountPoint: `${ns.path}auth/token/`, entry: TOKEN_AUTH_ENTRY, backend: tokenBackend },
    {
      mountPoint: `${ns.path}identity/`,
      entry: IDENTITY_MOUNT_ENTRY,
      backend: createIdentityBackend(context('identity/', IDENTITY_MOUNT_ENTRY), {
        store: services.identity(ns.id),
        authMounts: () => [
          { ...TOKEN_AUTH_ENTRY, path: 'auth/token/' },
          ...core.mounts.entries('auth', ns.id).map((e) => ({ ...e, path: `auth/${e.path}` })),
        ],
      }),
    },
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

/** How the identity store appears in mount listings (built in, one per namespace). */
export const IDENTITY_MOUNT_ENTRY: MountEntry = {
  ...SYSTEM_MOUNT_ENTRY,
  path: 'identity/',
  type: 'identity',
  description: 'identity store',
  accessor: 'identity_00000000',
  uuid: '00000000-0000-4000-8000-000000000002',
  seal_wrap: false,
};
