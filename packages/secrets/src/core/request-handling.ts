import type { PathMatch } from '../framework/index.js';
import { hasEnvelope } from '../logical/envelope.js';
import { PermissionDeniedError, SealedError, UnsupportedPathError } from '../logical/errors.js';
import type { BackendRequest, Caller, LogicalRequest, Operation, RequestTrace } from '../logical/request.js';
import {
  type IssuedSecret,
  isLoginRenewer,
  type LogicalResponse,
  type LoginGrant,
  type LoginRenewal,
} from '../logical/response.js';
import type { AuditedRequest } from './audit/audit-broker.js';
import type { AuditDevices } from './audit/index.js';
import type { ExpirationManager } from './expiration/index.js';
import { helpResponse } from './help-response.js';
import type { EntityRecord } from './identity/index.js';
import type { NamespaceServices } from './namespaces/namespace-services.js';
import type { Namespace } from './namespaces/namespace-store.js';
import { SYSTEM_DEFAULT_LEASE_TTL_SECONDS, SYSTEM_MAX_LEASE_TTL_SECONDS } from './router/mounts.js';
import { type Route, type RouteMatch, type Router, routeNotFound } from './router/router.js';
import { matchesSpecialPath } from './router/special-paths.js';
import { leaseSecret } from './secret-leases.js';
import { isAddressInCidrs } from './tokens/bound-cidrs.js';
import type { IssuedToken, TokenEntry, TokenStore } from './tokens/index.js';
import { invalidWrappingToken, type ResponseWrapping } from './wrapping/index.js';

/** The parts of the core the request pipeline uses (the core passes itself; this never imports it). */
export interface PipelineCore {
  isSealed(): boolean;
  /** Namespaces and their policies and identities; throws `SealedError` while sealed. */
  namespaceServices(): NamespaceServices;
  readonly router: Router;
  readonly tokens: TokenStore;
  readonly audit: AuditDevices;
  /** Registers the leases of secrets that backends issue. */
  readonly expiration: ExpirationManager;
  /** Server version, for the OpenAPI document of help. */
  readonly version: string;
  /** Wraps the responses of requests that ask for it (`X-Vault-Wrap-TTL`). */
  readonly wrapping: Pick<ResponseWrapping, 'wrap'>;
}

interface Authenticated {
  caller: Caller;
  /** The namespace the token belongs to: its policies speak of paths below it. */
  tokenNamespace: Namespace;
  isLastUse: boolean;
  /** The token's entity (after merges), for templated policies. */
  entity?: EntityRecord;
}

/**
 * The request pipeline, in the established order: sealed → namespace → token → existence
 * check → ACL → route → backend. The ACL runs before routing, so a token without access
 * learns nothing about which paths exist (403, not 404).
 */
export async function handleRequest(core: PipelineCore, req: LogicalRequest): Promise<LogicalResponse | undefined> {
  if (core.isSealed()) throw new SealedError();
  const { namespace, path } = core.namespaceServices().namespaces.resolve(req.namespace, req.path);
  const fullPath = `${namespace.path}${path}`;
  const matched = core.router.find(fullPath);
  // One match of the backend's paths serves the existence check and the call.
  const target = matched && req.operation !== 'help' ? matched.route.backend.match(matched.relativePath) : undefined;
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
  const trail = auditTrail(core, audited);
  let auth: Authenticated | undefined;
  try {
    auth = isUnauthenticated ? undefined : await authenticate(core, req, fullPath);
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
    if (auth) await authorize(core, auth, backendReq, matched, fullPath, false, req.trace);
    if (!matched) throw routeNotFound(fullPath);
    // Written before the request is served: an unauditable request is not served.
    if (core.audit.isEnabled) await trail.request();
    let response = await serve(core, matched, target, backendReq);
    if (response?.login) {
      response = await completeLogin(core, response, response.login, { namespace, path, route: matched.route, req });
    }
    if (response?.secret) {
      response = await leaseSecret(core.expiration, response as LogicalResponse & { secret: IssuedSecret }, {
        route: matched.route,
        fullPath,
        namespacePath: namespace.path,
        tokenAccessor: auth?.caller.accessor ?? '',
      });
    }
    if (req.wrapTtlSeconds && response && hasEnvelope(response)) {
      response = await core.wrapping.wrap(req.id, response, {
        ttlSeconds: req.wrapTtlSeconds,
        creationPath: path,
        namespaceId: namespace.id,
      });
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

/**
 * On these `sys/` paths the caller's own token is the wrapping token to spend, unless the body
 * names one: established servers check it before anything else and answer a spent, expired or
 * unknown one 400 `wrapping token is not valid or does not exist`, not 403.
 */
const OWN_WRAPPING_TOKEN_PATHS = new Set(['sys/wrapping/unwrap', 'sys/wrapping/rewrap']);

/** `error` (a refused token), or the invalid wrapping token it means at `path`. */
async function asWrappingRefusal(req: LogicalRequest, path: string, error: unknown): Promise<unknown> {
  if (!(error instanceof PermissionDeniedError) || !OWN_WRAPPING_TOKEN_PATHS.has(path)) return error;
  const body = req.readData ? await req.readData().catch(() => undefined) : req.data;
  if (body === undefined) return error;
  return typeof body.token === 'string' && body.token !== '' ? error : invalidWrappingToken();
}

/** The caller behind the token, refused (403) when the token cannot act at `fullPath`. */
async function authenticate(core: PipelineCore, req: LogicalRequest, fullPath: string): Promise<Authenticated> {
  const token = await core.tokens.lookup(req.clientToken);
  if (!token || !core.tokens.checkCidrs(token, req.remoteAddress)) throw PermissionDeniedError.denied();
  const services = core.namespaceServices();
  const tokenNamespace = services.namespaces.byId(token.namespace_id);
  // A token works in its namespace and below, never in a parent or a sibling.
  if (!tokenNamespace || !fullPath.startsWith(tokenNamespace.path)) throw PermissionDeniedError.denied();
  const identity = identityOf(core, token);
  // A use is spent even when the ACL then refuses the request, as established servers do.
  const { isLastUse } = await core.tokens.useToken(token);
  return {
    caller: {
      accessor: token.accessor,
      // Identity policies are not stored on the token: entity and group changes apply at once.
      policies: identity ? [...new Set([...token.policies, ...identity.policies])].sort() : token.policies,
      entityId: identity?.entity.id ?? '',
      displayName: token.display_name,
    },
    tokenNamespace,
    isLastUse,
    entity: identity?.entity,
  };
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
  return { entity, policies: store.identityPolicies(entity) };
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

interface LoginSite {
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
async function completeLogin(
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
  const entity = await identity.loginEntity(route.entry.accessor, grant.aliasName);
  if (entity.disabled) throw PermissionDeniedError.denied();
  const config = route.entry.config;
  const issued = await core.tokens.issueLogin(
    grant,
    {
      path: site.path,
      mountPoint: route.mountPoint.slice(namespace.path.length),
      mount: {
        defaultTtlSeconds: config.default_lease_ttl || SYSTEM_DEFAULT_LEASE_TTL_SECONDS,
        maxTtlSeconds: config.max_lease_ttl || SYSTEM_MAX_LEASE_TTL_SECONDS,
      },
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
  return {
    client_token: token,
    accessor: entry.accessor,
    policies: [...new Set([...entry.policies, ...identityPolicies])].sort(),
    token_policies: entry.policies,
    ...(identityPolicies.length > 0 ? { identity_policies: identityPolicies } : {}),
    metadata: entry.meta,
    lease_duration: entry.ttl,
    renewable: entry.renewable,
    entity_id: entry.entity_id,
    token_type: entry.type,
    orphan: entry.orphan,
    num_uses: entry.num_uses,
    mfa_requirement: null,
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
  const backend = matched.route.backend;
  if (!isLoginRenewer(backend)) return undefined;
  return backend.renewLogin({ metadata: entry.meta ?? {}, policies: entry.policies });
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
      operations.map((operation) =>
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

async function authorize(
  core: PipelineCore,
  auth: Authenticated,
  req: Pick<BackendRequest, 'operation' | 'wrapTtlSeconds'> & { data: BackendRequest['data'] | undefined },
  matched: RouteMatch | undefined,
  fullPath: string,
  isBodyPending = false,
  trace?: RequestTrace,
): Promise<void> {
  const needsSudo = matched ? matchesSpecialPath(matched.route.backend.specialPaths.root, matched.relativePath) : false;
  try {
    await core
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
        entity: auth.entity
          ? { id: auth.entity.id, name: auth.entity.name, metadata: auth.entity.metadata ?? {} }
          : undefined,
      });
  } catch (error) {
    if (trace && error instanceof PermissionDeniedError) {
      trace.denial = { path: fullPath, operation: req.operation, policies: auth.caller.policies };
    }
    throw error;
  }
}

/** The request as the matched backend sees it: its path relative to the mount. */
function backendRequest(
  req: LogicalRequest,
  matched: RouteMatch | undefined,
  fullPath: string,
  caller: Caller | undefined,
): BackendRequest {
  return {
    id: req.id,
    operation: req.operation,
    path: matched?.relativePath ?? fullPath,
    data: req.data,
    ...(req.rawBody ? { rawBody: req.rawBody } : {}),
    mountPoint: matched?.route.mountPoint ?? '',
    remoteAddress: req.remoteAddress,
    caller,
    ...(req.wrapTtlSeconds ? { wrapTtlSeconds: req.wrapTtlSeconds } : {}),
    // Only the token store (for `*-self` on tokens without an accessor) and the system backend
    // (whose unauthenticated `internal/ui/mounts` looks at the token if one is sent) get its text.
    ...(matched?.route.entry.type === 'token' || matched?.route.entry.type === 'system'
      ? { clientToken: req.clientToken }
      : {}),
  };
}

/** Audit entries of one request: the request entry is written once, before its outcome. */
function auditTrail(core: PipelineCore, audited: AuditedRequest) {
  let isRequestLogged = false;
  const request = async () => {
    if (!core.audit.isEnabled || isRequestLogged) return;
    isRequestLogged = true;
    await core.audit.logRequest(audited);
  };
  return {
    request,
    response: async (outcome: { response?: LogicalResponse }) => {
      if (core.audit.isEnabled) await core.audit.logResponse(audited, outcome);
    },
    /** A refused or failed request: both entries, the response carrying the error. */
    failed: async (error: unknown) => {
      if (!core.audit.isEnabled) return;
      await request();
      await core.audit.logResponse(audited, { error });
    },
  };
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

/** `create` when the target does not exist yet, else `update` (so ACL can tell them apart). */
async function writeOperation(target: PathMatch, req: BackendRequest): Promise<Operation> {
  return (await target.exists(req)) === false ? 'create' : 'update';
}
