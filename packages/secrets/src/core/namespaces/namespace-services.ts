import type { Clock, Logger, Random } from '@ward/base';
import { InvalidRequestError, SealedError } from '../../logical/errors.js';
import { deleteTree, type Storage } from '../../logical/storage.js';
import { createView } from '../barrier/index.js';
import { IdentityStore } from '../identity/index.js';
import { PasswordPolicyStore, passwordPolicyPrefix } from '../password-policies/index.js';
import { createAclAuthorizer } from '../policy/acl-authorizer.js';
import type { Authorizer } from '../policy/authorizer.js';
import { PolicyStore } from '../policy/policy-store.js';
import { CUBBYHOLE_MOUNT_ENTRY, IDENTITY_MOUNT_ENTRY, SYSTEM_MOUNT_ENTRY } from '../router/builtin-entries.js';
import type { MountEntry } from '../router/mount-table.js';
import type { MountManager } from '../router/mounts.js';
import type { Router } from '../router/router.js';
import type { Scheduler, TaskGroup } from '../scheduler/index.js';
import type { ServerControls, SystemCore } from '../system-core.js';
import { RoleStore, type TokenStore } from '../tokens/index.js';
import { type BuiltinBackends, builtinRoutes, type NamespaceKit } from './builtin-mounts.js';
import { type Namespace, NamespaceStore, ROOT_NAMESPACE } from './namespace-store.js';
import { loadTokenMount, tuneTokenMount } from './token-mount.js';

/** The parts of the core namespaces need (the core passes them; this never sees `Core`). */
export interface NamespaceServicesDeps {
  barrier: Storage;
  clock: Clock;
  random: Random;
  logger: Logger;
  router: Router;
  mounts: MountManager;
  tokens: TokenStore;
  builtins: BuiltinBackends;
  /** Runs the built-in backends' periodic tasks, as mounts' (stopped by the core on seal). */
  scheduler: Pick<Scheduler, 'start'>;
  /** Handed to every namespace's `sys/` as is. */
  server: ServerControls;
}

interface Opened {
  policies: PolicyStore;
  authorizer: Authorizer;
  identity: IdentityStore;
  /** `auth/token/` as tuned (`sys/auth/token/tune`). */
  tokenMount: MountEntry;
  mountPoints: string[];
  /** Periodic tasks of the built-in backends, stopped when the namespace is deleted (and on seal). */
  periodic: TaskGroup[];
}

/**
 * What each namespace has of its own while the server is unsealed: a policy store and its
 * ACL authorizer, and the built-in `sys/` and `auth/token/` routes below its path. Also
 * creates and deletes namespaces with everything in them.
 */
export class NamespaceServices {
  readonly namespaces: NamespaceStore;
  readonly #opened = new Map<string, Opened>();

  constructor(private readonly core: NamespaceServicesDeps) {
    this.namespaces = new NamespaceStore({
      storage: createView(core.barrier, 'sys/namespaces/'),
      random: core.random,
    });
  }

  /** Loads the namespace records (before the mount tables, whose entries name them). */
  load(): Promise<void> {
    return this.namespaces.load();
  }

  /** Opens every namespace's policies and routes (after the mount tables). */
  async openAll(): Promise<void> {
    for (const ns of this.namespaces.all()) await this.#open(ns);
  }

  /** Whether the namespace's policies, identities and routes are open (it exists and is loaded). */
  isOpen(namespaceId: string): boolean {
    return this.#opened.has(namespaceId);
  }

  policies(namespaceId: string): PolicyStore {
    return this.#get(namespaceId).policies;
  }

  authorizer(namespaceId: string): Authorizer {
    return this.#get(namespaceId).authorizer;
  }

  /** The namespace's entities, aliases and groups. */
  identity(namespaceId: string): IdentityStore {
    return this.#get(namespaceId).identity;
  }

  async create(parent: Namespace, name: string, metadata: Record<string, string>): Promise<Namespace> {
    const ns = await this.namespaces.create(parent, name, metadata);
    await this.#open(ns);
    this.core.logger.info('namespace created', { namespace: ns.path });
    return ns;
  }

  /** Deletes an empty-of-children namespace: its tokens are revoked, its mounts and policies erased. */
  async remove(ns: Namespace): Promise<void> {
    if (ns === ROOT_NAMESPACE) throw new InvalidRequestError('the root namespace cannot be deleted');
    if (this.namespaces.children(ns).length > 0) {
      throw new InvalidRequestError('unable to delete namespace containing child namespaces');
    }
    const { tokens, mounts, router, barrier } = this.core;
    for (const accessor of await tokens.listAccessors()) {
      const entry = await tokens.lookupAccessor(accessor);
      if (entry?.namespace_id === ns.id) await tokens.revokeTree(accessor);
    }
    await mounts.unmountNamespace(ns.id);
    const opened = this.#opened.get(ns.id);
    for (const group of opened?.periodic ?? []) await group.stop();
    for (const point of opened?.mountPoints ?? []) router.remove(point);
    this.#opened.delete(ns.id);
    await deleteTree(barrier, `namespaces/${ns.id}/`);
    await this.namespaces.remove(ns);
    this.core.logger.info('namespace deleted', { namespace: ns.path });
  }

  /** The system backend's view of the core, confined to one namespace. */
  systemView(ns: Namespace): SystemCore {
    const core = this.core;
    return {
      ...core.server,
      namespace: ns,
      mounts: core.mounts.forNamespace(ns.id),
      builtinMounts: () => [CUBBYHOLE_MOUNT_ENTRY, IDENTITY_MOUNT_ENTRY, SYSTEM_MOUNT_ENTRY],
      builtinAuthMounts: () => [this.#get(ns.id).tokenMount],
      tuneTokenMount: (change) => tuneTokenMount(core.barrier, ns, this.#get(ns.id).tokenMount, change),
      policies: () => this.policies(ns.id),
      passwordPolicies: new PasswordPolicyStore(createView(core.barrier, passwordPolicyPrefix(ns.id)), core.random),
      namespaces: {
        children: () => this.namespaces.children(ns),
        get: (name) => this.namespaces.byPath(`${ns.path}${name}/`),
        create: (name, metadata) => this.create(ns, name, metadata),
        patch: (child, metadata) => this.namespaces.patch(child, metadata),
        remove: (child) => this.remove(child),
      },
      openapiRoutes: () =>
        core.router
          .routes()
          .filter((r) => this.namespaces.resolve('', r.mountPoint).namespace === ns)
          .map((r) => ({ mountPoint: r.mountPoint.slice(ns.path.length), type: r.entry.type, backend: r.backend })),
      lockoutMounts: () =>
        core.router.routes().flatMap((r) => {
          const control = r.backend.lockout;
          if (!r.mountPoint.startsWith(ns.path) || !control) return [];
          const owner = this.namespaces.resolve('', r.mountPoint).namespace;
          return owner.path.startsWith(ns.path) ? [{ namespace: owner, accessor: r.entry.accessor, control }] : [];
        }),
    };
  }

  async #open(ns: Namespace): Promise<void> {
    const prefix = ns === ROOT_NAMESPACE ? 'sys/policy/' : `namespaces/${ns.id}/policy/`;
    const policies = await PolicyStore.open({ storage: createView(this.core.barrier, prefix) });
    const { barrier, clock, random, logger } = this.core;
    const identity = new IdentityStore({
      // Below `namespaces/<id>/` outside root, so deleting a namespace erases its identities too.
      storage: createView(barrier, ns === ROOT_NAMESPACE ? 'identity/' : `namespaces/${ns.id}/identity/`),
      clock,
      random,
      namespaceId: ns.id,
    });
    await identity.load();
    // Registered before the routes are built: the namespace's `sys/` backend asks for its policies.
    const opened: Opened = {
      policies,
      authorizer: createAclAuthorizer(policies),
      identity,
      tokenMount: await loadTokenMount(barrier, ns),
      mountPoints: [],
      periodic: [],
    };
    this.#opened.set(ns.id, opened);
    const kit = this.#kit(ns, opened);
    for (const route of builtinRoutes(kit, {
      barrier,
      clock,
      random,
      logger,
      factories: this.core.builtins,
      systemTtls: this.core.server.systemTtls,
    })) {
      this.core.router.add(route);
      opened.mountPoints.push(route.mountPoint);
      const { periodic } = route.backend;
      if (periodic.length > 0) opened.periodic.push(this.core.scheduler.start(route.mountPoint, periodic));
    }
  }

  #kit(ns: Namespace, opened: Opened): NamespaceKit {
    const { tokens, barrier, mounts } = this.core;
    return {
      namespace: ns,
      tokens,
      // Below `namespaces/<id>/` outside root, so deleting a namespace erases its roles too.
      roles: ns === ROOT_NAMESPACE ? tokens.roles : new RoleStore(createView(barrier, `namespaces/${ns.id}/token/`)),
      policies: opened.policies,
      identity: opened.identity,
      tokenMount: opened.tokenMount,
      system: this.systemView(ns),
      authMounts: () => [
        { ...opened.tokenMount, path: 'auth/token/' },
        ...mounts.entries('auth', ns.id).map((e) => ({ ...e, path: `auth/${e.path}` })),
      ],
    };
  }

  #get(namespaceId: string): Opened {
    const opened = this.#opened.get(namespaceId);
    if (!opened) throw new SealedError();
    return opened;
  }
}
