import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core/core.js';
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
