import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Logger } from '@ward/base';
import { AgentError, type ErrorCode } from '../errors.js';
import type { Reply } from './reply.js';

/** The one place an error becomes a status. A Record makes a code without a status a compile error. */
export const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  not_applicable: 501,
  unhealthy: 500,
  upstream_failed: 500,
  internal: 500,
};

const GZIP_MIN_BYTES = 1024;

/** Error bodies are plain text: the message only, as the established API sends them. */
export function sendError(res: ServerResponse, err: unknown, log: Logger): number {
  let status = 500;
  let message = 'internal error';
  if (err instanceof AgentError) {
    status = STATUS[err.code];
    message = err.message;
  }
  if (status >= 500)
    log.error('http: request failed', { status, error: err instanceof Error ? err.message : String(err) });
  if (res.headersSent) {
    res.destroy();
    return status;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message);
  return status;
}

/** How the client asked for the body: `?pretty`, and whether it takes gzip. */
export interface ReplyOptions {
  isPretty: boolean;
  acceptsGzip: boolean;
  signal: AbortSignal;
}

export async function sendReply(res: ServerResponse, reply: Reply, o: ReplyOptions): Promise<void> {
  switch (reply.kind) {
    case 'json': {
      const text = o.isPretty ? `${JSON.stringify(reply.body, null, 4)}\n` : JSON.stringify(reply.body);
      // Members and self of a large pool are worth compressing; tiny bodies are not.
      if (o.acceptsGzip && text.length > GZIP_MIN_BYTES) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
        res.end(gzipSync(text));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(text);
      return;
    }
    case 'empty':
      res.writeHead(200);
      res.end();
      return;
    case 'text':
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end(reply.body);
      return;
    case 'binary': {
      const headers: Record<string, string> = {
        'Content-Type': reply.contentType,
        'X-Content-Type-Options': 'nosniff',
      };
      if (reply.filename) headers['Content-Disposition'] = `attachment; filename="${reply.filename}"`;
      res.writeHead(200, headers);
      res.end(reply.body);
      return;
    }
    case 'stream':
      res.writeHead(200, { 'Content-Type': reply.contentType });
      res.flushHeaders();
      await reply.run((chunk) => res.write(chunk), o.signal);
      res.end();
      return;
  }
}
