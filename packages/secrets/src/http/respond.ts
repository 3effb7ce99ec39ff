import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@ward/base';
import { envelopeText, hasEnvelope } from '../logical/envelope.js';
import { type ErrorCode, LogicalError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';

/** The one place an error becomes an HTTP status. A `Record` makes a code without a status a compile error. */
export const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  permission_denied: 403,
  not_found: 404,
  unsupported_path: 404,
  unsupported_operation: 405,
  precondition_failed: 412,
  request_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  upstream_failed: 502,
  sealed: 503,
  storage_full: 507,
};

const BASE_HEADERS = { 'Cache-Control': 'no-store', 'Content-Type': 'application/json' };

/**
 * The headers of a JSON answer as Node's flat list (its cheapest form to write), the last value
 * set per answer: `writeHead` copies them out before it returns, so one list serves every answer.
 */
const JSON_HEADERS = ['Cache-Control', 'no-store', 'Content-Type', 'application/json', 'Content-Length', ''];

/** Sends `body` as JSON with `status`; every response of the API goes through here. */
export function sendJson(res: ServerResponse, status: number, body: unknown, req?: IncomingMessage): void {
  sendJsonText(res, status, JSON.stringify(body), req);
}

function sendJsonText(res: ServerResponse, status: number, text: string, req?: IncomingMessage): void {
  JSON_HEADERS[5] = String(Buffer.byteLength(text));
  res.writeHead(status, JSON_HEADERS);
  res.end(req?.method === 'HEAD' ? undefined : text);
}

/** An empty answer: 204, or 202 for work accepted and left to run (an asynchronous revocation). */
export function sendNoContent(res: ServerResponse, status = 204): void {
  res.writeHead(status, BASE_HEADERS);
  res.end();
}

/** `{"errors":[...]}` with the status of the error's code; anything unknown is logged and becomes a bare 500. */
export function sendError(res: ServerResponse, err: unknown, logger: Logger): void {
  if (err instanceof LogicalError) {
    if (err.code === 'internal') logger.error('internal error', { err });
    // One line, no stack: every write fails the same way until space is freed.
    if (err.code === 'storage_full') logger.error('storage full: write refused', { detail: String(err.cause ?? '') });
    const message = err.code === 'internal' ? ['internal error'] : err.errors;
    sendJson(res, STATUS[err.code], { errors: message });
    return;
  }
  logger.error('unhandled error', { err });
  sendJson(res, 500, { errors: ['internal error'] });
}

/**
 * The standard envelope, or 204 when there is nothing to say (200 when there are
 * only warnings), or a raw body for the few routes that answer without an envelope.
 */
export function sendLogicalResponse(res: ServerResponse, requestId: string, response: LogicalResponse | undefined) {
  if (response?.raw) {
    const { status, body, contentType, stream, headers } = response.raw;
    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
    if (contentType && stream) return sendStream(res, status, contentType, stream);
    // DER bodies (PKI's `ca`, `crl`) go out as the bytes they are; anything else as its text.
    if (contentType) sendText(res, status, contentType, body instanceof Uint8Array ? body : String(body));
    else sendJson(res, status, body);
    return;
  }
  if (!response || !hasEnvelope(response)) {
    sendNoContent(res, response?.status ?? 204);
    return;
  }
  sendJsonText(res, response.status ?? 200, envelopeText(requestId, response));
}

/** A text body under its own media type (the Prometheus exposition format). */
/** Streams a body (a snapshot, the log); a failure part-way cuts the connection, so the client sees it incomplete. */
function sendStream(res: ServerResponse, status: number, contentType: string, body: AsyncIterable<Uint8Array>): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Disposition': 'attachment' });
  // At once: a client waits for the headers, and a log stream (`sys/monitor`) may not write for a while.
  res.flushHeaders();
  pipeline(Readable.from(body), res).catch(() => res.destroy());
}

export function sendText(res: ServerResponse, status: number, contentType: string, body: string | Uint8Array): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
