import { isAddressInCidrs } from '../framework/index.js';
import { PermissionDeniedError } from '../logical/errors.js';
import type { LogicalRequest } from '../logical/request.js';
import type { LogicalResponse, LoginGrant, LoginRenewal } from '../logical/response.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { PipelineCore } from './pipeline-core.js';
import type { Route } from './router/router.js';
import { mountTtls } from './router/system-ttls.js';
import { authResponse, type IssuedToken, type TokenEntry } from './tokens/index.js';

export interface LoginSite {
  namespace: Namespace;
  /** The login path relative to the namespace. */
  path: string;
  route: Route;
  req: LogicalRequest;
}

/**
 * Turns an auth method's login grant into a token: the client must be inside the grant's
 * CIDRs, the alias `(mount accessor, alias name)` finds or creates its entity (a disabled
 * one refuses the login), and the token is an orphan of the mount's namespace bound to
 * that entity, its lease registered by the token store's hooks.
 */
export async function completeLogin(
  core: PipelineCore,
  response: LogicalResponse,
  grant: LoginGrant,
  site: LoginSite,
): Promise<LogicalResponse> {
  const { namespace, route } = site;
  if (grant.boundCidrs.length > 0 && !isAddressInCidrs(grant.boundCidrs, site.req.remoteAddress)) {
    throw PermissionDeniedError.denied();
  }
  const identity = core.namespaceServices().identity(namespace.id);
  const entity = await identity.loginEntity(route.entry.accessor, grant.aliasName, grant.aliasMetadata);
  if (entity.disabled) throw PermissionDeniedError.denied();
  if (grant.groupAliases) await identity.syncExternalGroups(route.entry.accessor, entity.id, grant.groupAliases);
  const config = route.entry.config;
  const issued = await core.tokens.issueLogin(
    grant,
    {
      path: site.path,
      mountPoint: route.mountPoint.slice(namespace.path.length),
      mount: mountTtls(config, core.systemTtls),
      namespaceId: namespace.id,
      mountTokenType: config.token_type,
    },
    entity.id,
  );
  const { login: _grant, ...rest } = response;
  const warnings = [...(response.warnings ?? []), ...issued.warnings];
  return {
    ...rest,
    auth: loginAuth(issued, identity.identityPolicies(entity)),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The `auth` block of a login: `identity_policies` only when the entity and its groups add any. */
function loginAuth({ token, entry }: IssuedToken, identityPolicies: string[]) {
  if (identityPolicies.length === 0) return authResponse(token, entry);
  return {
    ...authResponse(token, entry),
    policies: [...new Set([...entry.policies, ...identityPolicies])].sort(),
    identity_policies: identityPolicies,
  };
}

/**
 * The current limits of the auth method that issued `entry` at a login, for the token
 * store's renewal (`TokenStoreHooks.loginRenewal`). Tokens of the token store itself keep
 * their creation facts; a token whose mount is gone is left unrenewed.
 */
export async function loginRenewal(core: PipelineCore, entry: TokenEntry): Promise<LoginRenewal | null | undefined> {
  if (entry.path.startsWith('auth/token/')) return undefined;
  const ns = core.namespaceServices().namespaces.byId(entry.namespace_id);
  if (!ns) return null;
  const matched = core.router.find(`${ns.path}${entry.path}`);
  if (!matched) return null;
  const { renewLogin } = matched.route.backend;
  if (!renewLogin) return undefined;
  return renewLogin({ metadata: entry.meta ?? {}, policies: entry.policies });
}
