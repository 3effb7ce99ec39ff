import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { UpstreamError } from '../logical/errors.js';

/** A request as the proxy sends it on: the client's, with the token the proxy chose. */
export interface UpstreamRequest {
  method: string;
  /** Path and query exactly as the client sent them (`/v1/secret/data/x?version=2`). */
  target: string;
  headers: OutgoingHttpHeaders;
  /** A buffered body (when the cache needs to see it), the client's stream, or none. */
  body: Buffer | Readable | undefined;
}

/** The server's answer: status and headers as sent, the body still streaming. */
export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** The server the proxy forwards to, over one keep-alive connection pool. */
export interface Upstream {
  /** Sends one request. Rejects with UpstreamError (502) when the server cannot be reached. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  /** `http://host:port` or `https://host:port`. */
  address: string;
  /** PEM text of the CA to trust instead of the system store. */
  caCert?: string;
  tlsSkipVerify?: boolean;
}

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: they are never
 * forwarded. `host` is the proxy's; the pool sets the server's.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

export function createUpstream(options: UpstreamOptions): Upstream {
  const pool = new Pool(options.address, {
    connect: {
      ...(options.caCert !== undefined ? { ca: options.caCert } : {}),
      rejectUnauthorized: !options.tlsSkipVerify,
    },
    // The server keeps idle connections for 5 minutes; reuse them for most of that.
    keepAliveTimeout: 60_000,
  });
  return {
    async send(request) {
      try {
        const res = await pool.request({
          method: request.method as 'GET',
          path: request.target,
          headers: withoutHopByHop(request.headers) as Record<string, string>,
          body: request.body,
        });
        return { status: res.statusCode, headers: withoutHopByHop(res.headers) as IncomingHttpHeaders, body: res.body };
      } catch (err) {
        throw new UpstreamError(`error forwarding the request to the server: ${describe(err)}`, { cause: err });
      }
    },
    close: () => pool.close(),
  };
}

/** A copy of `headers` without hop-by-hop headers, nor any the `Connection` header names. */
export function withoutHopByHop<H extends Record<string, unknown>>(headers: H): H {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    out[name] = value;
  }
  return out as H;
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
