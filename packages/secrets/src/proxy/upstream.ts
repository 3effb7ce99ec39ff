import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Pool, util } from 'undici';
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

/** A whole answer of the server. */
export interface BufferedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The server the proxy forwards to, over one keep-alive connection pool. */
export interface Upstream {
  /** Sends one request. Rejects with UpstreamError (502) when the server cannot be reached. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /**
   * As `send`, with the whole answer read into memory. Made with undici's callbacks rather than a
   * stream: a small answer (most of the API) then costs no stream machinery, which is most of a
   * proxied request's CPU time besides the system calls.
   */
  sendForWhole(request: UpstreamRequest): Promise<BufferedResponse>;
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
    sendForWhole: (request) =>
      new Promise((resolve, reject) => {
        let status = 0;
        let headers: IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        const fail = (err: Error) =>
          reject(new UpstreamError(`error forwarding the request to the server: ${describe(err)}`, { cause: err }));
        try {
          pool.dispatch(
            {
              method: request.method as 'GET',
              path: request.target,
              headers: withoutHopByHop(request.headers) as Record<string, string>,
              body: request.body,
            },
            {
              onConnect() {},
              onHeaders(statusCode, rawHeaders) {
                status = statusCode;
                headers = withoutHopByHop(util.parseHeaders(rawHeaders) as IncomingHttpHeaders);
                return true;
              },
              onData(chunk) {
                chunks.push(chunk);
                return true;
              },
              onComplete() {
                resolve({ status, headers, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
              },
              onError(err) {
                fail(err);
              },
            },
          );
        } catch (err) {
          fail(err as Error);
        }
      }),
    close: () => pool.close(),
  };
}

/** A copy of `headers` without hop-by-hop headers, nor any the `Connection` header names. */
function withoutHopByHop<H extends Record<string, unknown>>(headers: H): H {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  // Keyed by the client's header names: no prototype, so `__proto__` is a name like any other.
  const out: Record<string, unknown> = Object.create(null);
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
