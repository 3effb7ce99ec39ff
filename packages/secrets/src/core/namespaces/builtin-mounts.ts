import type { Clock, Logger, Random } from '@ward/base';
import type { Backend, BackendContext } from '../../framework/index.js';
import type { Storage } from '../../logical/storage.js';
import { createView } from '../barrier/index.js';
import type { IdentityStore } from '../identity/index.js';
import type { PolicyStore } from '../policy/policy-store.js';
import { CUBBYHOLE_MOUNT_ENTRY, IDENTITY_MOUNT_ENTRY, SYSTEM_MOUNT_ENTRY } from '../router/builtin-entries.js';
import type { MountEntry } from '../router/mount-table.js';
import type { Route } from '../router/router.js';
import { mountTtls, type SystemTtls } from '../router/system-ttls.js';
import type { SystemCore } from '../system-core.js';
import type { RoleStore, TokenStore } from '../tokens/index.js';
import type { Namespace } from './namespace-store.js';

/**
 * What the core hands the factories of one namespace's built-in backends: the services of
 * that namespace, each a narrow part of the core, never the core itself.
 */
export interface NamespaceKit {
  namespace: Namespace;
  tokens: TokenStore;
  /** This namespace's token roles (the root namespace's live in the token store). */
  roles: RoleStore;
  policies: PolicyStore;
  identity: IdentityStore;
  /** The system backend's view of the core, confined to this namespace. */
  system: SystemCore;
  /** The namespace's `auth/token/` entry, as tuned; its backend's TTLs come from it. */
  tokenMount: MountEntry;
  /** The namespace's auth mounts, the token store first; paths relative to the namespace (`auth/userpass/`). */
  authMounts(): MountEntry[];
}

/** A factory of a built-in backend: its namespace's services and its mount context. */
export type BuiltinBackendFactory = (kit: NamespaceKit, ctx: BackendContext) => Backend;

/**
 * The backends every namespace has and no mount table stores, from the composition root
 * (`src/builtin-backends.ts`): the core imports none of them.
 */
export interface BuiltinBackends {
  /** `<namespace>sys/` */
  system: BuiltinBackendFactory;
  /** `<namespace>auth/token/` */
  token: BuiltinBackendFactory;
  /** `<namespace>identity/` */
  identity: BuiltinBackendFactory;
  /** `<namespace>cubbyhole/`: each token's private storage, where response wrapping keeps what it wraps. */
  cubbyhole: BuiltinBackendFactory;
}

export interface BuiltinRouteDeps {
  barrier: Storage;
  clock: Clock;
  random: Random;
  logger: Logger;
  factories: BuiltinBackends;
  systemTtls: SystemTtls;
}

/** The built-in routes of one namespace, built when it opens (at unseal, or when created). */
export function builtinRoutes(kit: NamespaceKit, deps: BuiltinRouteDeps): Route[] {
  const ns = kit.namespace;
  const storagePrefix = (mount: string, entry: MountEntry) =>
    mount === 'sys/' ? 'sys/' : mount === 'cubbyhole/' ? `logical/${entry.uuid}/` : `auth/${entry.uuid}/`;
  const context = (mount: string, entry: MountEntry): BackendContext => ({
    storage: createView(deps.barrier, storagePrefix(mount, entry)),
    logger: deps.logger.child({ mount: `${ns.path}${mount}` }),
    clock: deps.clock,
    random: deps.random,
    options: {},
    system: {
      defaultLeaseTtlSeconds: () => mountTtls(entry.config, deps.systemTtls).defaultTtlSeconds,
      maxLeaseTtlSeconds: () => mountTtls(entry.config, deps.systemTtls).maxTtlSeconds,
      generatePasswordFromPolicy: (name) => kit.system.passwordPolicies.generate(name),
    },
  });
  const { system, token, identity, cubbyhole } = deps.factories;
  return [
    {
      mountPoint: `${ns.path}sys/`,
      entry: SYSTEM_MOUNT_ENTRY,
      backend: system(kit, context('sys/', SYSTEM_MOUNT_ENTRY)),
      table: 'mounts',
      storagePrefix: storagePrefix('sys/', SYSTEM_MOUNT_ENTRY),
    },
    {
      mountPoint: `${ns.path}auth/token/`,
      entry: kit.tokenMount,
      backend: token(kit, context('auth/token/', kit.tokenMount)),
      table: 'auth',
      storagePrefix: storagePrefix('auth/token/', kit.tokenMount),
    },
    {
      mountPoint: `${ns.path}identity/`,
      entry: IDENTITY_MOUNT_ENTRY,
      backend: identity(kit, context('identity/', IDENTITY_MOUNT_ENTRY)),
      table: 'mounts',
      storagePrefix: storagePrefix('identity/', IDENTITY_MOUNT_ENTRY),
    },
    {
      mountPoint: `${ns.path}cubbyhole/`,
      entry: CUBBYHOLE_MOUNT_ENTRY,
      backend: cubbyhole(kit, context('cubbyhole/', CUBBYHOLE_MOUNT_ENTRY)),
      table: 'mounts',
      storagePrefix: storagePrefix('cubbyhole/', CUBBYHOLE_MOUNT_ENTRY),
    },
  ];
}
