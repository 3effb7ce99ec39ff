import { createTokenBackend } from './auth/token/index.js';
import type { BuiltinBackends } from './core/namespaces/builtin-mounts.js';
import { createCubbyholeBackend } from './engines/cubbyhole/index.js';
import { createIdentityBackend } from './identity/index.js';
import { createSystemBackend } from './sys/backend.js';
import type { ManagedKeyDirectory } from './sys/managed-keys/directory.js';

/**
 * The backends every namespace has (`sys/`, `auth/token/`, `identity/`, `cubbyhole/`), wired to the
 * namespace's services. Handed to the core by the composition root (`server/build-server.ts`)
 * with the mountable catalog, so the core imports no backend. Each namespace's `sys/` opens
 * its managed keys in `managedKeys`; `apiAddr` is the server's address, the OpenID providers' default issuer.
 */
export const builtinNamespaceBackends = (managedKeys: ManagedKeyDirectory, apiAddr: () => string): BuiltinBackends => ({
  system: (kit, ctx) =>
    createSystemBackend(kit.system, ctx, {
      keys: managedKeys.open(kit.namespace.id, ctx.storage, ctx.random),
      libraries: managedKeys.kms.libraries,
    }),
  token: (kit, ctx) => {
    const ns = kit.namespace;
    return createTokenBackend(kit.tokens, ctx, {
      // `path` is the full request path; policies of this namespace speak of paths below it.
      hasSudo: async (req, path) => {
        const policies = req.caller?.policies ?? [];
        if (policies.includes('root')) return true;
        const acl = await kit.policies.acl(policies);
        return acl.allowed('update', path.slice(ns.path.length)).isSudo;
      },
      policyExists: async (name) => (await kit.policies.read(name)) !== undefined,
      namespaceId: ns.id,
      roles: kit.roles,
      identityOf: (entityId) => {
        const entity = entityId ? kit.identity.resolveEntity(entityId) : undefined;
        return entity && { entityId: entity.id, policies: kit.identity.identityPolicies(entity) };
      },
    });
  },
  identity: (kit, ctx) =>
    createIdentityBackend(ctx, {
      store: kit.identity,
      authMounts: () => kit.authMounts(),
      namespace: { id: kit.namespace.id, path: kit.namespace.path },
      apiAddr,
    }),
  // Each token's own storage; no service of the namespace is needed.
  cubbyhole: (_kit, ctx) => createCubbyholeBackend(ctx),
});
