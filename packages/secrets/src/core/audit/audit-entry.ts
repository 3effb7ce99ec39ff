import { LogicalError } from '../../logical/errors.js';
import type { AuthResponse, LogicalResponse, WrapInfo } from '../../logical/response.js';
import { rfc3339Nano } from '../../logical/time.js';
import type { AuditedRequest } from './audit-broker.js';
import { type Hasher, hashStrings } from './audit-hash.js';

/** How one device writes entries; from its options (`hmac_accessor`, `elide_list_responses`, `log_raw`). */
export interface EntryFormat {
  /** Applied to tokens, secret data and (with `hmacAccessor`) accessors. */
  hash: Hasher;
  hmacAccessor: boolean;
  /** List responses show how many `keys` and `key_info` entries there were, not the entries. */
  elideListResponses: boolean;
}

/** Facts about the request the pipeline does not carry: when it is logged and its namespace's id. */
export interface EntryContext {
  timeMs: number;
  namespaceId: string;
}

/** The outcome `AuditBroker.logResponse` receives. */
export interface AuditOutcome {
  response?: LogicalResponse;
  error?: unknown;
}

/** The `"type":"request"` entry: who asked for what, written before the request is served. */
export function requestEntry(a: AuditedRequest, ctx: EntryContext, f: EntryFormat): Record<string, unknown> {
  return {
    time: rfc3339Nano(ctx.timeMs),
    type: 'request',
    auth: authSection(a, f),
    request: requestSection(a, ctx, f),
    error: '',
  };
}

/** The `"type":"response"` entry: the request again, and what it returned or the error it ended in. */
export function responseEntry(
  a: AuditedRequest,
  outcome: AuditOutcome,
  ctx: EntryContext,
  f: EntryFormat,
): Record<string, unknown> {
  return {
    time: rfc3339Nano(ctx.timeMs),
    type: 'response',
    auth: authSection(a, f),
    request: requestSection(a, ctx, f),
    response: outcome.response ? responseSection(a, outcome.response, f) : {},
    error: outcome.error === undefined ? '' : errorText(outcome.error),
  };
}

const token = (value: string | undefined, f: EntryFormat) => (value ? f.hash(value) : '');
const accessor = (value: string | undefined, f: EntryFormat) =>
  value && f.hmacAccessor ? f.hash(value) : (value ?? '');

/** The token that made the request; empty on unauthenticated paths. */
function authSection(a: AuditedRequest, f: EntryFormat): Record<string, unknown> {
  const caller = a.caller;
  if (!caller) return {};
  return {
    client_token: token(a.request.clientToken, f),
    accessor: accessor(caller.accessor, f),
    display_name: caller.displayName,
    policies: caller.policies,
    token_policies: caller.policies,
    entity_id: caller.entityId,
  };
}

function requestSection(a: AuditedRequest, ctx: EntryContext, f: EntryFormat): Record<string, unknown> {
  const req = a.request;
  // The client may name the namespace in the header, the path or both; the log shows the path inside it.
  const full = `${req.namespace}${req.path}`;
  const path = full.startsWith(a.namespacePath) ? full.slice(a.namespacePath.length) : req.path;
  const section: Record<string, unknown> = {
    id: req.id,
    operation: a.operation,
    mount_type: a.mountType,
    client_token: token(req.clientToken, f),
    client_token_accessor: accessor(a.caller?.accessor, f),
    namespace: a.namespacePath ? { id: ctx.namespaceId, path: a.namespacePath } : { id: ctx.namespaceId },
    path,
    remote_address: req.remoteAddress,
  };
  if (Object.keys(req.data).length > 0) section.data = hashStrings(req.data, f.hash);
  return section;
}

function responseSection(a: AuditedRequest, res: LogicalResponse, f: EntryFormat): Record<string, unknown> {
  const section: Record<string, unknown> = { mount_type: a.mountType };
  if (res.auth) section.auth = responseAuth(res.auth, f);
  if (res.lease) section.secret = { lease_id: res.lease.leaseId };
  const data = res.raw ? res.raw.body : res.data;
  if (data !== undefined && data !== null) {
    const shown = a.operation === 'list' && f.elideListResponses ? elideList(data) : data;
    section.data = hashStrings(shown, f.hash);
  }
  if (res.wrapInfo) section.wrap_info = wrapInfoSection(res.wrapInfo, f);
  if (res.warnings?.length) section.warnings = res.warnings;
  return section;
}

/** A wrapped response: the wrapping token is a credential, so it is hashed like any other token. */
function wrapInfoSection(w: WrapInfo, f: EntryFormat): Record<string, unknown> {
  return {
    token: token(w.token, f),
    accessor: accessor(w.accessor, f),
    ttl: w.ttl,
    creation_time: w.creation_time,
    creation_path: w.creation_path,
    ...(w.wrapped_accessor ? { wrapped_accessor: accessor(w.wrapped_accessor, f) } : {}),
  };
}

/** A token issued by this request (login, token creation): the token itself never reaches the log. */
function responseAuth(auth: AuthResponse, f: EntryFormat): Record<string, unknown> {
  return {
    client_token: token(auth.client_token, f),
    accessor: accessor(auth.accessor, f),
    policies: auth.policies,
    token_policies: auth.token_policies,
    metadata: auth.metadata,
    entity_id: auth.entity_id,
    token_type: auth.token_type,
    token_ttl: auth.lease_duration,
  };
}

/** `keys` and `key_info` become counts: a listing's size matters to an auditor, its names are noise. */
function elideList(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...data };
  if (Array.isArray(out.keys)) out.keys = out.keys.length;
  if (typeof out.key_info === 'object' && out.key_info !== null) out.key_info = Object.keys(out.key_info).length;
  return out;
}

/** Errors stay plain (they say what went wrong, not what was stored); unknown ones as the client saw them. */
function errorText(error: unknown): string {
  return error instanceof LogicalError && error.code !== 'internal' ? error.message : 'internal error';
}
