import { PermissionDeniedError } from '../logical/errors.js';
import type { EntityFacts } from '../logical/identity-template.js';
import type { BackendRequest, Caller, LogicalRequest, RequestTrace } from '../logical/request.js';
import { templateFacts } from './identity/index.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { PipelineCore } from './pipeline-core.js';
import type { RouteMatch } from './router/router.js';
import { matchesSpecialPath } from './router/special-paths.js';
import type { TokenEntry, TokenUse } from './tokens/index.js';
import { invalidWrappingToken } from './wrapping/index.js';

/**
 * Who a request acts as, and whether it may: the token behind it (`authenticate`) and the ACL's
 * verdict (`authorize`). Both answer synchronously when everything they need is in memory (a
 * cached token without a use count, a cached ACL, or the root policy), so the common request
 * awaits nothing here; otherwise they return a promise.
 */
export interface Authenticated {
  caller: Caller;
  /** The namespace the token belongs to: its policies speak of paths below it. */
  tokenNamespace: Namespace;
  isLastUse: boolean;
  /** The token's entity (after merges), for templated policies. */
  entity?: EntityFacts;
}

/** The caller behind the token, refused (403) when the token cannot act at `fullPath`. */
export function authenticate(
  core: PipelineCore,
  req: LogicalRequest,
  fullPath: string,
): Authenticated | Promise<Authenticated> {
  const cached = core.tokens.lookupCached(req.clientToken);
  if (cached !== null) return admit(core, req, fullPath, cached);
  return core.tokens.lookup(req.clientToken).then((token) => admit(core, req, fullPath, token));
}

function admit(
  core: PipelineCore,
  req: LogicalRequest,
  fullPath: string,
  token: TokenEntry | undefined,
): Authenticated | Promise<Authenticated> {
  if (!token || !core.tokens.checkCidrs(token, req.remoteAddress)) throw PermissionDeniedError.denied();
  const services = core.namespaceServices();
  const tokenNamespace = services.namespaces.byId(token.namespace_id);
  // A token works in its namespace and below, never in a parent or a sibling.
  if (!tokenNamespace || !fullPath.startsWith(tokenNamespace.path)) throw PermissionDeniedError.denied();
  const identity = identityOf(core, token);
  // A use is spent even when the ACL then refuses the request, as established servers do.
  const use = core.tokens.useToken(token);
  const authenticated = ({ isLastUse }: TokenUse): Authenticated => ({
    caller: {
      accessor: token.accessor,
      // Identity policies are not stored on the token: entity and group changes apply at once.
      policies: identity ? [...new Set([...token.policies, ...identity.policies])].sort() : token.policies,
      entityId: identity?.entity.id ?? '',
      displayName: token.display_name,
      entity: identity?.facts,
    },
    tokenNamespace,
    isLastUse,
    entity: identity?.facts,
  });
  return use instanceof Promise ? use.then(authenticated) : authenticated(use);
}

/**
 * The entity behind a token (following merges) and its identity policies. A token whose
 * entity is disabled or deleted is refused (403) but not revoked: re-enabling restores it.
 */
function identityOf(core: PipelineCore, token: TokenEntry) {
  if (!token.entity_id) return undefined;
  const store = core.namespaceServices().identity(token.namespace_id ?? 'root');
  const entity = store.resolveEntity(token.entity_id);
  if (!entity || entity.disabled) throw PermissionDeniedError.denied();
  return { entity, policies: store.identityPolicies(entity), facts: templateFacts(store, entity) };
}

/**
 * A token's policies with its entity's and groups' (sorted, deduplicated), as its requests
 * are judged; `undefined` for no token. For `sys/capabilities*`.
 */
export function withIdentityPolicies(core: PipelineCore, token: TokenEntry | undefined): string[] | undefined {
  if (!token?.entity_id) return token?.policies;
  const store = core.namespaceServices().identity(token.namespace_id ?? 'root');
  const entity = store.resolveEntity(token.entity_id);
  if (!entity) return token.policies;
  return [...new Set([...token.policies, ...store.identityPolicies(entity)])].sort();
}

/** What the ACL judges: the operation, its data (`undefined` while the body is unread) and the wrap TTL. */
export type Judged = Pick<BackendRequest, 'operation' | 'wrapTtlSeconds'> & {
  data: BackendRequest['data'] | undefined;
};

/** The ACL's verdict on `req` at `fullPath` for `auth`: nothing, or `PermissionDeniedError` (thrown or rejected). */
export function authorize(
  core: PipelineCore,
  auth: Authenticated,
  req: Judged,
  matched: RouteMatch | undefined,
  fullPath: string,
  isBodyPending = false,
  trace?: RequestTrace,
): void | Promise<void> {
  const needsSudo = matched ? matchesSpecialPath(matched.route.backend.specialPaths.root, matched.relativePath) : false;
  try {
    const verdict = core
      .namespaceServices()
      .authorizer(auth.tokenNamespace.id)
      .authorize({
        policies: auth.caller.policies,
        operation: req.operation,
        path: fullPath.slice(auth.tokenNamespace.path.length),
        needsSudo,
        data: req.data,
        isBodyPending,
        wrapTtlSeconds: req.wrapTtlSeconds,
        entity: auth.entity,
      });
    if (verdict) return verdict.catch((error: unknown) => noteDenial(error, auth, req, fullPath, trace));
  } catch (error) {
    noteDenial(error, auth, req, fullPath, trace);
  }
}

/** Rethrows `error`, first noting a refusal in the trace (the request log names the policies that decided). */
function noteDenial(error: unknown, auth: Authenticated, req: Judged, fullPath: string, trace?: RequestTrace): never {
  if (trace && error instanceof PermissionDeniedError) {
    trace.denial = { path: fullPath, operation: req.operation, policies: auth.caller.policies };
  }
  throw error;
}

/**
 * On these `sys/` paths the caller's own token is the wrapping token to spend, unless the body
 * names one: established servers check it before anything else and answer a spent, expired or
 * unknown one 400 `wrapping token is not valid or does not exist`, not 403.
 */
const OWN_WRAPPING_TOKEN_PATHS = new Set(['sys/wrapping/unwrap', 'sys/wrapping/rewrap']);

/** `error` (a refused token), or the invalid wrapping token it means at `path`. */
export async function asWrappingRefusal(req: LogicalRequest, path: string, error: unknown): Promise<unknown> {
  if (!(error instanceof PermissionDeniedError) || !OWN_WRAPPING_TOKEN_PATHS.has(path)) return error;
  const body = req.readData ? await req.readData().catch(() => undefined) : req.data;
  if (body === undefined) return error;
  return typeof body.token === 'string' && body.token !== '' ? error : invalidWrappingToken();
}
