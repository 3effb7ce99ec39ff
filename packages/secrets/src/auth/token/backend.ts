import type { TokenStore } from '../../core/tokens/index.js';
import { type Backend, type BackendContext, createBackend } from '../../framework/index.js';
import type { TokenBackendDeps, TokenBackendOptions } from './deps.js';
import { pathAccessors } from './path-accessors.js';
import { pathCreate } from './path-create.js';
import { pathLookup } from './path-lookup.js';
import { pathRenew } from './path-renew.js';
import { pathRevoke } from './path-revoke.js';
import { pathRoles } from './path-roles.js';

const HELP =
  'The token store creates, looks up, renews and revokes tokens. Every token but the root ' +
  'token has a parent and is revoked with it, unless it is an orphan.';

/**
 * Root-protected paths of the token store (relative to `auth/token/`): they need `sudo`
 * besides the operation's capability. `revoke-orphan` itself checks sudo in its handler,
 * as established servers do, since the glob does not match the bare path.
 */
export const TOKEN_SPECIAL_PATHS = { root: ['revoke-orphan/*', 'accessors*'] };

/**
 * The `auth/token/` backend over `store`. `ctx.system` gives the mount's TTLs (tune
 * `auth/token/` to change them); `options` answer the sudo and policy questions.
 */
export function createTokenBackend(store: TokenStore, ctx: BackendContext, options: TokenBackendOptions = {}): Backend {
  const hasSudo = options.hasSudo ?? ((req) => req.caller?.policies.includes('root') ?? false);
  const d: TokenBackendDeps = {
    store,
    roles: options.roles ?? store.roles,
    clock: ctx.clock,
    system: ctx.system,
    hasSudo: async (req, path) => hasSudo(req, path),
    policyExists: options.policyExists,
    namespaceId: options.namespaceId ?? 'root',
    identityOf: options.identityOf ?? (() => undefined),
  };
  return createBackend({
    type: 'token',
    storage: ctx.storage,
    help: HELP,
    paths: [...pathCreate(d), ...pathLookup(d), ...pathRenew(d), ...pathRevoke(d), ...pathRoles(d), pathAccessors(d)],
    specialPaths: TOKEN_SPECIAL_PATHS,
  });
}
