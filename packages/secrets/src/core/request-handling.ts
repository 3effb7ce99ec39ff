import { type PathMatch, writeOperation } from '../framework/index.js';
import { hasEnvelope } from '../logical/envelope.js';
import { SealedError, UnsupportedPathError } from '../logical/errors.js';
import type { BackendRequest, Caller, LogicalRequest, Operation } from '../logical/request.js';
import type { IssuedSecret, LogicalResponse } from '../logical/response.js';
import type { AuditedRequest } from './audit/audit-broker.js';
import { helpResponse } from './help-response.js';
import { completeLogin } from './login-completion.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { PipelineCore } from './pipeline-core.js';
import { type Authenticated, asWrappingRefusal, authenticate, authorize } from './request-auth.js';
import { type RouteMatch, routeNotFound } from './router/router.js';
import { matchesSpecialPath } from './router/special-paths.js';
import { leaseSecret } from './secret-leases.js';

export { loginRenewal } from './login-completion.js';
export type { PipelineCore } from './pipeline-core.js';
export { withIdentityPolicies } from './request-auth.js';

/**
 * Whether the path a request names (below its namespace header `namespace`) is declared
 * `forwardToActive`: its state lives only in the active server's memory, so a performance
 * standby hands even a read of it to the active server. False while nothing is loaded (the
 * pipeline then answers as it would) and where no mount serves the path.
 */
export function isForwardedToActive(core: PipelineCore, namespace: string, path: string): boolean {
  if (core.isSealed()) return false;
  const resolved = core.namespaceServices().namespaces.resolve(namespace, path);
  const matched = core.router.find(`${resolved.namespace.path}${resolved.path}`);
  return matched?.route.backend.match(matched.relativePath)?.forwardToActive === true;
}

/**
 * The request pipeline, in the established order: sealed → namespace → token → existence
 * check → ACL → route → backend. The ACL runs before routing, so a token without access
 * learns nothing about which paths exist (403, not 404).
 */
export async function handleRequest(core: PipelineCore, req: LogicalRequest): Promise<LogicalResponse | undefined> {
  if (core.isSealed()) throw new SealedError();
  const resolved = core.namespaceServices().namespaces.resolve(req.namespace, req.path);
  const { namespace } = resolved;
  let { path } = resolved;
  let fullPath = `${namespace.path}${path}`;
  let matched = core.router.find(fullPath);
  // One match of the backend's paths serves the existence check and the call.
  const target = matched && req.operation !== 'help' ? matched.route.backend.match(matched.relativePath) : undefined;
  if (target && matched && target.path !== matched.relativePath) {
    // Judged, audited and served under the name the backend acts on (`Admin` is `admin`), so a
    // policy about one name covers every spelling of it (issue 28).
    path = withTail(path, matched.relativePath, target.path);
    req.path = withTail(req.path, matched.relativePath, target.path);
    fullPath = `${namespace.path}${path}`;
    matched = { route: matched.route, relativePath: target.path };
  }
  const isUnauthenticated = matched
    ? matchesSpecialPath(matched.route.backend.specialPaths.unauthenticated, matched.relativePath)
    : false;
  const audited: AuditedRequest = {
    request: req,
    namespacePath: namespace.path,
    mountType: matched?.route.entry.type ?? '',
    operation: req.operation,
  };
  if (req.trace) req.trace.mountType = audited.mountType;
  const trail = new AuditTrail(core, audited);
  let auth: Authenticated | undefined;
  try {
    // Synchronous when the token is in memory: an await costs a promise and a microtask per request.
    const authenticated = isUnauthenticated ? undefined : authenticate(core, req, fullPath);
    auth = authenticated instanceof Promise ? await authenticated : authenticated;
  } catch (error) {
    const refusal = await asWrappingRefusal(req, path, error);
    // Refused credentials are audited too: they are what an operator looks for in the log.
    await trail.failed(refusal);
    throw refusal;
  }
  audited.caller = auth?.caller;
  if (req.trace && auth) req.trace.accessor = auth.caller.accessor;
  try {
    // Guarded here, not only inside: an awaited call costs a promise and a microtask per request.
    if (req.readData) await readBody(core, req, auth, matched, fullPath);
  } catch (error) {
    await trail.failed(error);
    throw error;
  }

  const backendReq = backendRequest(req, matched, fullPath, auth?.caller);
  try {
    if (target && req.operation === 'update') backendReq.operation = await writeOperation(target, backendReq);
    audited.operation = backendReq.operation;
    const verdict = auth && authorize(core, auth, backendReq, matched, fullPath, false, req.trace);
    if (verdict) await verdict;
    if (!matched) throw routeNotFound(fullPath);
    // Written before the request is served: an unauditable request is not served.
    if (core.audit.isEnabled) await trail.request();
    let response = await serve(core, matched, target, backendReq);
    // Called only when there is something to complete: most answers need no extra await.
    if (response && (response.login || response.secret || req.wrapTtlSeconds)) {
      response = await completeResponse(core, response, { req, namespace, path, fullPath, matched, auth });
    }
    if (core.audit.isEnabled) await trail.response({ response });
    return response;
  } catch (error) {
    await trail.failed(error);
    throw error;
  } finally {
    // The request that spends a token's last use still succeeds; the token goes right after.
    if (auth?.isLastUse && auth.caller.accessor) await core.tokens.revokeTree(auth.caller.accessor);
  }
}

/** `text` with its ending `tail` replaced by `replacement` (of the same length: only letter case differs). */
function withTail(text: string, tail: string, replacement: string): string {
  return text.endsWith(tail) ? text.slice(0, text.length - tail.length) + replacement : text;
}

/** Where a request stands once its backend has answered. */
interface Served {
  req: LogicalRequest;
  namespace: Namespace;
  path: string;
  fullPath: string;
  matched: RouteMatch;
  auth: Authenticated | undefined;
}

/** A backend's answer made whole: a login completed, a secret leased, the lot wrapped when asked. */
async function completeResponse(core: PipelineCore, served: LogicalResponse, at: Served): Promise<LogicalResponse> {
  const { req, namespace, path, matched } = at;
  let response = served;
  if (response.login) {
    response = await completeLogin(core, response, response.login, { namespace, path, route: matched.route, req });
  }
  if (response.secret) {
    response = await leaseSecret(core.expiration, response as LogicalResponse & { secret: IssuedSecret }, {
      route: matched.route,
      fullPath: at.fullPath,
      namespacePath: namespace.path,
      tokenAccessor: at.auth?.caller.accessor ?? '',
      systemTtls: core.systemTtls,
    });
  }
  if (req.wrapTtlSeconds && hasEnvelope(response)) {
    response = await core.wrapping.wrap(req.id, response, {
      ttlSeconds: req.wrapTtlSeconds,
      creationPath: path,
      namespaceId: namespace.id,
    });
  }
  return response;
}

/**
 * Reads the request's body into `req.data` (the audit entry shows it), once the token is accepted
 * and the ACL, judging the path and operation alone, does not refuse: a client without access
 * never has its body read or parsed. A write is let through when either `create` or `update`
 * is granted, since which one it is depends on the existence check that follows.
 */
async function readBody(
  core: PipelineCore,
  req: LogicalRequest,
  auth: Authenticated | undefined,
  matched: RouteMatch | undefined,
  fullPath: string,
): Promise<void> {
  if (!req.readData) return;
  if (auth) {
    const operations: Operation[] = req.operation === 'update' ? ['update', 'create'] : [req.operation];
    const judged = await Promise.allSettled(
      operations.map(async (operation) =>
        authorize(
          core,
          auth,
          { operation, data: undefined, wrapTtlSeconds: req.wrapTtlSeconds },
          matched,
          fullPath,
          true,
        ),
      ),
    );
    const refusal = judged.find((j) => j.status === 'rejected');
    if (!judged.some((j) => j.status === 'fulfilled') && refusal) throw refusal.reason;
  }
  req.data = await req.readData();
}

/** The request as the matched backend sees it: its path relative to the mount. */
function backendRequest(
  req: LogicalRequest,
  matched: RouteMatch | undefined,
  fullPath: string,
  caller: Caller | undefined,
): BackendRequest {
  const backendReq: BackendRequest = {
    id: req.id,
    operation: req.operation,
    path: matched?.relativePath ?? fullPath,
    data: req.data,
    mountPoint: matched?.route.mountPoint ?? '',
    remoteAddress: req.remoteAddress,
    caller,
  };
  // Assigned, not spread from literals: this runs on every request.
  if (req.rawBody) backendReq.rawBody = req.rawBody;
  if (req.wrapTtlSeconds) backendReq.wrapTtlSeconds = req.wrapTtlSeconds;
  if (req.tlsConnection) backendReq.tlsConnection = req.tlsConnection;
  if (req.forwardedClientCertificate) backendReq.forwardedClientCertificate = req.forwardedClientCertificate;
  // Only the token store (for `*-self` on tokens without an accessor) and the system backend
  // (whose unauthenticated `internal/ui/mounts` looks at the token if one is sent) get its text.
  const type = matched?.route.entry.type;
  if (type === 'token' || type === 'system') backendReq.clientToken = req.clientToken;
  // The OpenID provider's token and userinfo endpoints authenticate clients and access tokens themselves.
  if (type === 'identity' && req.authorization) backendReq.authorization = req.authorization;
  return backendReq;
}

/**
 * Audit entries of one request: the request entry is written once, before its outcome. Whether
 * audit is enabled is asked at each entry (a device may be enabled while the request runs).
 */
class AuditTrail {
  #isRequestLogged = false;

  constructor(
    private readonly core: PipelineCore,
    private readonly audited: AuditedRequest,
  ) {}

  async request(): Promise<void> {
    if (!this.core.audit.isEnabled || this.#isRequestLogged) return;
    this.#isRequestLogged = true;
    await this.core.audit.logRequest(this.audited);
  }

  async response(outcome: { response?: LogicalResponse }): Promise<void> {
    if (this.core.audit.isEnabled) await this.core.audit.logResponse(this.audited, outcome);
  }

  /** A refused or failed request: both entries, the response carrying the error. */
  async failed(error: unknown): Promise<void> {
    if (!this.core.audit.isEnabled) return;
    await this.request();
    await this.core.audit.logResponse(this.audited, { error });
  }
}

/** Help from the mount's declarations, or the matched path's handler (an unknown path is a 404 after the ACL). */
function serve(
  core: PipelineCore,
  matched: RouteMatch,
  target: PathMatch | undefined,
  req: BackendRequest,
): Promise<LogicalResponse | undefined> {
  if (req.operation === 'help') return Promise.resolve(helpResponse(matched, core.version));
  if (!target) throw new UnsupportedPathError();
  return target.handle(req);
}
