/** The HTTP layer: listeners (TLS, LIST shim, PROXY protocol), bodies within limits, HTTP ⇄ logical request, standby forwarding. @module */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, type Random, uuidSource } from '@ward/base';
import { ReadOnlyStorageError } from '../core/barrier/index.js';
import type { Core } from '../core/core.js';
import type { MetricsReport } from '../core/system-core.js';
import {
  InvalidRequestError,
  RequestTooLargeError,
  SealedError,
  UnsupportedOperationError,
} from '../logical/errors.js';
import type { LogicalRequest, RequestTrace, TlsConnection } from '../logical/request.js';
import type { LogicalResponse } from '../logical/response.js';
import type { ClusterForwarder } from './cluster-forwarder.js';
import { applyCors } from './cors.js';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from './json-body.js';
import {
  apiPath,
  checkPatchContentType,
  clientToken,
  namespaceHeader,
  operationOf,
  queryData,
  splitTarget,
  wrapTtlHeader,
} from './logical-request.js';
import { rawRouteHelp } from './raw-help.js';
import { closeAfterResponse } from './read-body.js';
import { readRequestData } from './request-body.js';
import { checkRequestHeader } from './request-header.js';
import { createRequestLogger } from './request-log.js';
import { sendError, sendJson, sendLogicalResponse, sendText } from './respond.js';
import { awaitRequiredIndex, forwardToActive, isServedByPerformanceStandby, setIndexHeaders } from './standby.js';
import { RAW_ROUTES, type ServerInfo } from './sys-raw.js';

export interface ApiHandlerOptions {
  core: Core;
  info: ServerInfo;
  logger: Logger;
  random: Random;
  /** Bytes; negative = unlimited. */
  maxRequestSize: number;
  /** The listener's `max_json_*` limits (default: the established ones). */
  jsonLimits?: JsonLimits;
  /** The listener's `require_request_header`: refuse (412) requests without `X-Vault-Request: true`. */
  requireRequestHeader?: boolean;
  /** Where each answered request is counted and timed, and what `sys/metrics` renders. */
  metrics?: RequestMetrics;
  /** The listener lets `GET sys/metrics` through without a token. */
  unauthenticatedMetricsAccess?: boolean;
  /** `log_requests`: one `info` line per request (otherwise `debug`). */
  logRequests?: boolean;
  /** HA: a standby forwards what it cannot serve to the active server through this (else it redirects). */
  forwarder?: ClusterForwarder;
  /** The client's address (the cluster listener takes it from the forwarding standby); default the socket's. */
  remoteAddress?: (req: IncomingMessage) => string;
  /** The client certificate a trusted proxy passed on for this request (`x_forwarded_for_client_cert_header`). */
  forwardedClientCertificate?: (req: IncomingMessage) => Uint8Array | undefined;
}

/** The part of the server's metrics the HTTP layer feeds and serves. */
export interface RequestMetrics extends MetricsReport {
  observeRequest(labels: { method: string; mountType: string; status: number }, seconds: number): void;
}

/**
 * The `/v1/` request handler. It only translates: HTTP in, a logical request to the
 * core, the envelope (or a typed error's status) out. No business rules live here.
 */
export function createApiHandler(options: ApiHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const logRequest = createRequestLogger({
    logger: options.logger,
    random: options.random,
    isEveryRequestInfo: options.logRequests === true,
  });
  const { metrics, core } = options;
  const nextRequestId = uuidSource(options.random);
  return (req, res) => {
    const started = performance.now();
    const trace: RequestTrace = {};
    // One listener for the metrics and the log: each request's listeners are a cost of the hot path.
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1e3;
      if (metrics) {
        const mountType = trace.mountType ?? mountTypeOf(core, req);
        metrics.observeRequest({ method: req.method ?? '', mountType, status: res.statusCode }, seconds);
      }
      logRequest(req, res, trace, seconds);
    });
    serve(options, req, res, trace, nextRequestId).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // The rest of an oversized, refused or unparseable body is never read: the answer closes the connection.
      if (err instanceof RequestTooLargeError || !req.complete) closeAfterResponse(req, res);
      // Not sealed: an HA server between roles (the lock just lost, or being taken). Transient (issue 28 point 9).
      if (err instanceof SealedError && core.isChangingHaRole()) return sendRetryLater(res, CHANGING_ROLE);
      sendError(res, err, options.logger);
    });
  };
}

async function serve(
  o: ApiHandlerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  trace: RequestTrace,
  nextRequestId: () => string,
): Promise<void> {
  // Before anything else: a preflight carries no token and no request header, and a refused origin learns nothing.
  if (applyCors(o.core.cors.current, req, res)) return;
  if (o.requireRequestHeader) checkRequestHeader(req);
  const url = splitTarget(req.url ?? '/');
  const path = apiPath(url.pathname);
  if (path === undefined) return sendJson(res, 404, { errors: [] });

  if (o.unauthenticatedMetricsAccess && o.metrics && path === 'sys/metrics' && req.method === 'GET') {
    const answer = await o.metrics.render(url.query.get('format') ?? '');
    return sendText(res, answer.status, answer.contentType, answer.body);
  }
  const raw = RAW_ROUTES.get(path);
  const rawHelp = raw && req.method === 'GET' && url.query.get('help') ? rawRouteHelp(path) : undefined;
  if (rawHelp) return sendJson(res, 200, rawHelp);
  if (raw) return raw({ core: o.core, info: o.info, req, res, query: url.query, body: () => readData(o, req) });
  if (o.core.isStandby() && !o.core.isPerformanceStandby()) return forwardRequest(o, req, res, path);
  // HEAD is only for ACME nonces (RFC 8555 7.2), as established; it is answered like a GET.
  if (req.method === 'HEAD' && !path.endsWith('/acme/new-nonce')) throw new UnsupportedOperationError('');
  // `?help=1` is the `help` operation: namespace, token, ACL and audit apply as to any request.
  const isHelp = req.method === 'GET' && Boolean(url.query.get('help'));
  const operation = isHelp ? 'help' : operationOf(req.method ?? '', url.query);
  // A performance standby serves reads, once it reflects the revision the client names.
  if (o.core.isStandby()) {
    const isForwarded = () => o.core.isForwardedToActive(namespaceHeader(req), path);
    if (!isServedByPerformanceStandby(operation, isForwarded)) return forwardRequest(o, req, res, path);
  }
  const isIndexReached = awaitRequiredIndex(o.core, req);
  if (!(isIndexReached === true || (await isIndexReached))) return forwardRequest(o, req, res, path);
  if (operation === 'patch') checkPatchContentType(req);
  const isWrite = operation === 'update' || operation === 'patch';
  if (isWrite && path.endsWith('/')) throw new InvalidRequestError("cannot write to a path ending in '/'");

  const wrapTtlSeconds = wrapTtlHeader(req);
  const requestId = nextRequestId();
  const logical: LogicalRequest = {
    id: requestId,
    operation,
    path: operation === 'list' && !path.endsWith('/') ? `${path}/` : path,
    // A body is read only once the token (and the ACL, as far as it can judge without it) accepts the request.
    data: isWrite ? {} : queryData(url.query),
    clientToken: clientToken(req),
    remoteAddress: o.remoteAddress?.(req) ?? req.socket.remoteAddress ?? '',
    namespace: namespaceHeader(req),
    trace,
    wrapTtlSeconds,
  };
  // A TLS socket (or the shim over one) answers for the client's certificate.
  if ('encrypted' in req.socket && req.socket.encrypted) logical.tlsConnection = req.socket as unknown as TlsConnection;
  const forwardedCert = o.forwardedClientCertificate?.(req);
  if (forwardedCert) logical.forwardedClientCertificate = forwardedCert;
  if (req.headers.authorization) logical.authorization = req.headers.authorization;
  if (isWrite && isByteBody(path, req)) logical.rawBody = req;
  else if (isWrite) logical.readData = () => readData(o, req);
  const response = await handleOrHandOver(o.core, logical);
  if (response === HANDED_OVER) {
    // The body is gone (read here before the storage turned read-only: the HA lock was lost
    // mid-request), so there is nothing left to forward (issue 28). The write did not happen.
    if (req.readableEnded || req.readableDidRead) return sendRetryLater(res);
    return forwardRequest(o, req, res, path);
  }
  setIndexHeaders(o.core, res);
  // As established servers answer: a read that finds nothing is a 404, whatever the backend.
  if (response === undefined && operation === 'read') return sendJson(res, 404, { errors: [] });
  sendLogicalResponse(res, requestId, response);
}

const LOST_LOCK = 'this server stopped being the active server while the request ran; nothing was written: retry it';
const CHANGING_ROLE = 'this server is changing its HA role (active or standby); retry the request';

/** 503 with `Retry-After: 1`: this server stopped being the active one while the request ran. */
function sendRetryLater(res: ServerResponse, message = LOST_LOCK): void {
  res.setHeader('Retry-After', '1');
  sendJson(res, 503, { errors: [message] });
}

function readData(o: ApiHandlerOptions, req: IncomingMessage) {
  return readRequestData(req, { maxRequestSize: o.maxRequestSize, json: o.jsonLimits ?? DEFAULT_JSON_LIMITS });
}

/** Hands the request to the active server (this one is a standby, or a read here tried to write). */
function forwardRequest(o: ApiHandlerOptions, req: IncomingMessage, res: ServerResponse, path: string) {
  const limits = { maxRequestSize: o.maxRequestSize, jsonLimits: o.jsonLimits ?? DEFAULT_JSON_LIMITS };
  const forward = { ...limits, core: o.core, forwarder: o.forwarder, isByteBody: isByteBody(path, req) };
  return forwardToActive(forward, req, res);
}

const HANDED_OVER = Symbol('handed over to the active server');

/** The core's answer, or `HANDED_OVER` when a read on a performance standby tried to write. */
async function handleOrHandOver(
  core: Core,
  req: LogicalRequest,
): Promise<LogicalResponse | undefined | typeof HANDED_OVER> {
  try {
    return await core.handleRequest(req);
  } catch (err) {
    if (err instanceof ReadOnlyStorageError) return HANDED_OVER;
    throw err;
  }
}

/** Paths whose body is bytes (a snapshot), handed to the backend unparsed. */
const BYTE_BODY_PATHS: ReadonlySet<string> = new Set(['sys/storage/raft/snapshot', 'sys/storage/raft/snapshot-force']);

/** Whether the body is bytes: a snapshot, or a DER OCSP request (RFC 6960 A.1) to a PKI mount's `ocsp`. */
function isByteBody(path: string, req: IncomingMessage): boolean {
  return BYTE_BODY_PATHS.has(path) || (req.headers['content-type'] ?? '').startsWith('application/ocsp-request');
}

/** For requests the core did not route (raw routes, a sealed server): the mount type of the path, or `''`. */
function mountTypeOf(core: Core, req: IncomingMessage): string {
  try {
    const path = apiPath(splitTarget(req.url ?? '/').pathname);
    return path === undefined || core.isSealed() ? '' : core.router.match(path).route.entry.type;
  } catch {
    return '';
  }
}
