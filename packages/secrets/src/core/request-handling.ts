import { LogicalError, PermissionDeniedError, SealedError, UnsupportedPathError } from '../logical/errors.js';
import type { BackendRequest, Caller, LogicalRequest, Operation } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { AuditedRequest } from './audit/audit-broker.js';
import type { Core } from './core.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { Route } from './router/router.js';
import { matchesSpecialPath } from './router/special-paths.js';

interface Authenticated {
  caller: Caller;
  /** The namespace the token belongs to: its policies speak of paths below it. */
  tokenNamespace: Namespace;
  isLastUse: boolean;
}

/**
 * The request pipeline, in the established order: sealed → namespace → token → existence
 * check → ACL → route → backend. The ACL runs before routing, so a token without access
 * learns nothing about which paths exist (403, not 404).
 */
export async function handleRequest(core: Core, req: LogicalRequest): Promise<LogicalResponse | undefined> {
  if (core.isSealed()) throw new SealedError();
  const { namespace, path } = core.namespaceServices().namespaces.resolve(req.namespace, req.path);
  const fullPath = `${namespace.path}${path}`;
  const matched = tryMatch(core, fullPath);
  const isUnauthenticated = matched
    ? matchesSpecialPath(matched.route.backend.specialPaths.unauthenticated, matched.relativePath)
    : false;
  const auth = isUnauthenticated ? undefined : await authenticate(core, req, fullPath);

  const backendReq: BackendRequest = {
    id: req.id,
    operation: req.operation,
    path: matched?.relativePath ?? fullPath,
    data: req.data,
    mountPoint: matched?.route.mountPoint ?? '',
    remoteAddress: req.remoteAddress,
    caller: auth?.caller,
    ...(matched?.route.entry.type === 'token' ? { clientToken: req.clientToken } : {}),
  };
  if (matched && req.operation === 'update') backendReq.operation = await writeOperation(matched.route, backendReq);
  const audited: AuditedRequest = {
    request: req,
    namespacePath: namespace.path,
    mountType: matched?.route.entry.type ?? '',
    caller: auth?.caller,
    operation: backendReq.operation,
  };
  try {
    if (auth) await authorize(core, auth, backendReq, matched, fullPath);
    if (!matched) core.router.match(fullPath); // throws the established "no handler for route" 404
    // Written before the request is served: an unauditable request is not served.
    if (core.audit.isEnabled) await core.audit.logRequest(audited);
    const response = await matched?.route.backend.handle(backendReq);
    if (core.audit.isEnabled) await core.audit.logResponse(audited, { response });
    return response;
  } catch (error) {
    if (core.audit.isEnabled) await core.audit.logResponse(audited, { error });
    throw error;
  } finally {
    // The request that spends a token's last use still succeeds; the token goes right after.
    if (auth?.isLastUse && auth.caller.accessor) await core.tokens.revokeTree(auth.caller.accessor);
  }
}

/** The caller behind the token, refused (403) when the token cannot act at `fullPath`. */
async function authenticate(core: Core, req: LogicalRequest, fullPath: string): Promise<Authenticated> {
  const token = await core.tokens.lookup(req.clientToken);
  if (!token || !core.tokens.checkCidrs(token, req.remoteAddress)) throw PermissionDeniedError.token();
  const tokenNamespace = core.namespaceServices().namespaces.byId(token.namespace_id);
  // A token works in its namespace and below, never in a parent or a sibling.
  if (!tokenNamespace || !fullPath.startsWith(tokenNamespace.path)) throw PermissionDeniedError.token();
  // A use is spent even when the ACL then refuses the request, as established servers do.
  const { isLastUse } = await core.tokens.useToken(token);
  return {
    caller: {
      accessor: token.accessor,
      policies: token.policies,
      entityId: token.entity_id,
      displayName: token.display_name,
    },
    tokenNamespace,
    isLastUse,
  };
}

async function authorize(
  core: Core,
  auth: Authenticated,
  req: BackendRequest,
  matched: { route: Route; relativePath: string } | undefined,
  fullPath: string,
): Promise<void> {
  const needsSudo = matched ? matchesSpecialPath(matched.route.backend.specialPaths.root, matched.relativePath) : false;
  await core
    .namespaceServices()
    .authorizer(auth.tokenNamespace.id)
    .authorize({
      policies: auth.caller.policies,
      operation: req.operation,
      path: fullPath.slice(auth.tokenNamespace.path.length),
      needsSudo,
      data: req.data,
      entity: auth.caller.entityId ? { id: auth.caller.entityId } : undefined,
    });
}

function tryMatch(core: Core, path: string): { route: Route; relativePath: string } | undefined {
  try {
    return core.router.match(path);
  } catch (err) {
    if (err instanceof LogicalError && err.code === 'not_found') return undefined;
    throw err;
  }
}

/** `create` when the target does not exist yet, else `update` (so ACL can tell them apart). */
async function writeOperation(route: Route, req: BackendRequest): Promise<Operation> {
  try {
    const exists = await route.backend.exists(req);
    return exists === false ? 'create' : 'update';
  } catch (err) {
    // An unknown path is reported by the backend when it handles the request, after the ACL.
    if (err instanceof UnsupportedPathError) return 'update';
    throw err;
  }
}
