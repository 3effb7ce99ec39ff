import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core/core.js';
import { InvalidRequestError, PreconditionFailedError } from '../logical/errors.js';
import type { Operation } from '../logical/request.js';
import type { ClusterForwarder } from './cluster-forwarder.js';
import { JsonBodyParser, type JsonLimits, writeInSlices } from './json-body.js';
import { bodyObject, parseBody } from './logical-request.js';
import { streamBody } from './read-body.js';
import { sendJson } from './respond.js';

/** What a standby needs to pass a request on: the receiving listener's limits and the cluster channel. */
export interface ForwardOptions {
  core: Core;
  /** Absent: the server has no cluster channel (no `cluster_addr`), so clients are redirected. */
  forwarder?: ClusterForwarder;
  /** The receiving listener's `max_request_size` (negative = unlimited) and `max_json_*` limits. */
  maxRequestSize: number;
  jsonLimits: JsonLimits;
  /** The body is bytes (a snapshot), not JSON: only its size is checked. */
  isByteBody: boolean;
}

/**
 * Serves a request this server cannot serve itself (it is a standby): forwarded to the active
 * server over the cluster channel, so the client gets the active server's answer; when forwarding
 * is impossible, a 307 (method and body kept) to the active's `api_addr`; 503 while none is active.
 *
 * The body is read and checked here, under the limits of the listener the client reached, before
 * anything is forwarded: the active server's own limits are not the ones this client was promised.
 */
export async function forwardToActive(o: ForwardOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (o.forwarder) {
    const body = await readCheckedBody(o, req);
    const request = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      remoteAddress: req.socket.remoteAddress ?? '',
    };
    if ((await o.forwarder.forward(request, res)) === 'answered') return;
  }
  const { leader } = await o.core.haStatus();
  if (leader?.apiAddr) {
    const location = `${leader.apiAddr.replace(/\/+$/, '')}${req.url ?? '/'}`;
    res.writeHead(307, { Location: location, 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  // An election is under way (the lock just lost or released): transient, so a retry hint (issue 28 point 9).
  res.setHeader('Retry-After', '1');
  sendJson(res, 503, { errors: ['this server is a standby and no active server is known yet'] });
}

/** The whole body, refused (413, 400) exactly as the listener would refuse it if it served the request itself. */
async function readCheckedBody(o: ForwardOptions, req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const contentType = req.headers['content-type'];
  const isForm = contentType?.startsWith('application/x-www-form-urlencoded') === true;
  const isWrite = req.method === 'PUT' || req.method === 'POST' || req.method === 'PATCH';
  const parser = isWrite && !isForm && !o.isByteBody ? new JsonBodyParser(o.jsonLimits) : undefined;
  const received = await streamBody(req, o.maxRequestSize, (chunk) => {
    chunks.push(chunk);
    return parser ? writeInSlices(parser, chunk) : undefined;
  });
  const body = Buffer.concat(chunks, received);
  if (parser) bodyObject(parser.end());
  if (isWrite && isForm) parseBody(body, contentType, o.jsonLimits);
  return body;
}

/**
 * What a performance standby serves itself: reads (read, list, help) of any path but those
 * declared `forwardToActive` (their state lives only on the active server: leases and their
 * timers, HA membership, the key-share ceremonies), which the router tells. Anything else is
 * the active server's; a read that turns out to write (a lease, a token use) is handed over
 * when it tries.
 */
export function isServedByPerformanceStandby(operation: Operation, isForwardedToActive: () => boolean): boolean {
  if (operation !== 'read' && operation !== 'list' && operation !== 'help') return false;
  return !isForwardedToActive();
}

/** How long a standby waits for a revision a client names before answering 412. */
export const INDEX_WAIT_MS = 2_000;

/** Read-your-writes headers, in the established name and Ward's own; either is accepted. */
const INDEX_HEADERS = ['x-vault-index', 'x-service-index'];
const INCONSISTENT_HEADERS = ['x-vault-inconsistent', 'x-service-inconsistent'];

/**
 * The storage revision a request requires (`X-Vault-Index` / `X-Service-Index`: the decimal
 * revision a response named), or `undefined` when it names none.
 */
function requiredIndex(req: IncomingMessage): number | undefined {
  if (req.headers['x-vault-index'] === undefined && req.headers['x-service-index'] === undefined) return undefined;
  const values = INDEX_HEADERS.flatMap((name) => headerValues(req, name));
  if (values.length === 0) return undefined;
  const revisions = values.map((value) => {
    if (!/^\d{1,15}$/.test(value))
      throw new InvalidRequestError(`invalid index header "${value}": expected a revision`);
    return Number(value);
  });
  return Math.max(...revisions);
}

/** `X-Vault-Inconsistent: forward-active-node` asks for the active server rather than a 412. */
function isForwardingAsked(req: IncomingMessage): boolean {
  const headers = req.headers;
  if (headers['x-vault-inconsistent'] === undefined && headers['x-service-inconsistent'] === undefined) return false;
  const values = INCONSISTENT_HEADERS.flatMap((name) => headerValues(req, name));
  for (const value of values) {
    if (value !== 'forward-active-node' && value !== 'fail') {
      throw new InvalidRequestError(`invalid inconsistency header "${value}": use forward-active-node or fail`);
    }
  }
  return values.includes('forward-active-node');
}

/**
 * Waits (up to `INDEX_WAIT_MS`) until this server can serve the request: it reflects the
 * revision the request names, and a performance standby is not midway through a reload.
 * Returns false when the request is to go to the active server instead; throws 412 when a
 * named revision is not reached and the client did not ask for forwarding. The answer is
 * synchronous when the core gives one at once (no HA, or the active server): no promise, no
 * microtask on the common path.
 */
export function awaitRequiredIndex(core: Core, req: IncomingMessage): boolean | Promise<boolean> {
  const required = requiredIndex(req);
  const isForwardAsked = isForwardingAsked(req);
  const reached = core.reachIndex(required ?? 0, INDEX_WAIT_MS);
  if (reached === true) return true;
  return (async () => {
    if (await reached) return true;
    if (required === undefined || isForwardAsked) return false;
    throw new PreconditionFailedError('required index state not present');
  })();
}

/** Names, on the response, the revision this server's answer reflects. */
export function setIndexHeaders(core: Core, res: ServerResponse): void {
  const index = core.consistencyIndex();
  if (index === undefined || res.headersSent) return;
  res.setHeader('X-Vault-Index', String(index));
  res.setHeader('X-Service-Index', String(index));
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const raw = req.headers[name];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
