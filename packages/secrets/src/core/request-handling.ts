import { LogicalError, PermissionDeniedError, SealedError, UnsupportedPathError } from '../logical/errors.js';
import type { BackendRequest, LogicalRequest, Operation } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { Core } from './core.js';
import type { Route } from './router/router.js';
import { matchesSpecialPath } from './router/special-paths.js';

/**
 * The request pipeline, in the established order: sealed → token → existence check →
 * ACL → route → backend. The ACL runs before routing, so a token without access learns
 * nothing about which paths exist (403, not 404).
 */
export async function handleRequest(core: Core, req: LogicalRequest): Promise<LogicalResponse | undefined> {
  if (core.isSealed()) throw new SealedError();
  const matched = tryMatch(core, req.path);
  const isUnauthenticated = matched
    ? matchesSpecialPath(matched.route.backend.specialPaths.unauthenticated, matched.relativePath)
    : false;

  let caller: BackendRequest['caller'];
  let isLastUse = false;
  let tokenAccessor = '';
  if (!isUnauthenticated) {
    const token = await core.tokens.lookup(req.clientToken);
    if (!token || !core.tokens.checkCidrs(token, req.remoteAddress)) throw PermissionDeniedError.token();
    // A use is spent even when the ACL then refuses the request, as established servers do.
    ({ isLastUse } = await core.tokens.useToken(token));
    tokenAccessor = token.accessor;
    caller = {
      accessor: token.accessor,
      policies: token.policies,
      entityId: token.entity_id,
      displayName: token.display_name,
    };
  }

  const backendReq: BackendRequest = {
    id: req.id,
    operation: req.operation,
    path: matched?.relativePath ?? req.path,
    data: req.data,
    mountPoint: matched?.route.mountPoint ?? '',
    remoteAddress: req.remoteAddress,
    caller,
    ...(matched?.route.mountPoint === 'auth/token/' ? { clientToken: req.clientToken } : {}),
  };
  if (matched && req.operation === 'update') backendReq.operation = await writeOperation(matched.route, backendReq);

  if (caller) {
    const needsSudo = matched
      ? matchesSpecialPath(matched.route.backend.specialPaths.root, matched.relativePath)
      : false;
    await core.authorizer.authorize({
      policies: caller.policies,
      operation: backendReq.operation,
      path: req.path,
      needsSudo,
      data: req.data,
      entity: caller.entityId ? { id: caller.entityId } : undefined,
    });
  }
  if (!matched) core.router.match(req.path); // throws the established "no handler for route" 404
  try {
    return await matched?.route.backend.handle(backendReq);
  } finally {
    // The request that spends a token's last use still succeeds; the token goes right after.
    if (isLastUse && tokenAccessor) await core.tokens.revokeTree(tokenAccessor);
  }
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
