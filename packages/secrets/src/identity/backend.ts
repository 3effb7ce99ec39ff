import type { IdentityStore } from '../core/identity/index.js';
import { type Backend, type BackendContext, createBackend } from '../framework/index.js';
import type { AuthMountInfo, IdentityDeps } from './deps.js';
import {
  keyRotationTask,
  OIDC_UNAUTHENTICATED,
  onceDefaults,
  type ProviderDeps,
  pathsOidc,
  providerStore,
} from './oidc/index.js';
import { pathEntities } from './path-entities.js';
import { pathEntityAlias } from './path-entity-alias.js';
import { pathEntityMerge } from './path-entity-merge.js';
import { pathGroupAlias } from './path-group-alias.js';
import { pathGroups } from './path-groups.js';
import { pathLookupEntity, pathLookupGroup } from './path-lookup.js';
import { pathMfaTotpMethods } from './path-mfa-totp-methods.js';
import { pathMfaTotpSecrets } from './path-mfa-totp-secrets.js';

const HELP =
  'The identity store: entities (one per person or service), their aliases at auth mounts, ' +
  'internal and external groups with their aliases, and login-MFA TOTP methods. Entity and group policies add to tokens’ policies.';

/** What the core gives the identity backend of a namespace. */
export interface IdentityBackendDeps {
  store: IdentityStore;
  /** The namespace's auth mounts now. */
  authMounts(): AuthMountInfo[];
  /** The namespace (its id and path): OpenID provider issuers and tokens name it. */
  namespace: { id: string; path: string };
  /** `scheme://host:port` of this server (`api_addr`, else its first listener): the providers' default issuer. */
  apiAddr(): string;
}

/** The identity backend of one namespace, mounted at `<namespace>identity/` over `deps.store`. */
export function createIdentityBackend(ctx: BackendContext, deps: IdentityBackendDeps): Backend {
  const d: IdentityDeps = {
    store: deps.store,
    authMount: (accessor) => deps.authMounts().find((m) => m.accessor === accessor),
    random: (n) => ctx.random.bytes(n),
  };
  const oidc: ProviderDeps = {
    clock: ctx.clock,
    random: ctx.random,
    logger: ctx.logger,
    store: deps.store,
    namespace: deps.namespace,
    apiAddr: deps.apiAddr,
    ensureDefaults: onceDefaults(),
  };
  return createBackend({
    type: 'identity',
    storage: ctx.storage,
    help: HELP,
    paths: [
      ...pathEntities(d),
      pathEntityMerge(d),
      ...pathEntityAlias(d),
      ...pathGroups(d),
      ...pathGroupAlias(d),
      // The secrets' fixed paths before `mfa/method/totp/:method_id`: the first matching declaration wins.
      ...pathMfaTotpSecrets(d),
      ...pathMfaTotpMethods(d),
      pathLookupEntity(d),
      pathLookupGroup(d),
      ...pathsOidc(oidc),
    ],
    specialPaths: { unauthenticated: OIDC_UNAUTHENTICATED },
    // Authorization codes last minutes and access tokens hours: their records go once expired.
    periodic: [
      {
        name: 'oidc-provider-sweep',
        intervalMs: 3_600_000,
        run: () => providerStore.sweep(ctx.storage, ctx.clock.now()),
      },
      // Named keys rotate on their rotation_period; replaced generations leave the key set after verification_ttl.
      keyRotationTask(ctx.storage, oidc),
    ],
  });
}
