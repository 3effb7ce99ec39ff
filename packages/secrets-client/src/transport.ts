import { Agent, type Dispatcher } from 'undici';
import { ApiError, ConnectionError } from './errors.js';

/** How to reach the server; the same options `createClient` takes. */
export interface ClientOptions {
  /** Base address, e.g. `https://127.0.0.1:8200` (no `/v1`). */
  address: string;
  /** Sent as `X-Vault-Token`; omitted when empty. */
  token?: string;
  /** Sent as `X-Vault-Namespace`; omitted when empty. */
  namespace?: string;
  /**
   * Sent as `X-Vault-Wrap-TTL` (`5m`, `300`): the server answers each request with `wrap_info`, a
   * single-use token holding the response, instead of the response. Omitted when empty.
   */
  wrapTtl?: string;
  /** PEM text of the CA certificate(s) to trust instead of the system store. */
  caCert?: string;
  /** Accept any server certificate. Only for development. */
  skipVerify?: boolean;
  /** PEM client certificate (and its key) presented in the TLS handshake: the `cert` auth method logs in with it. */
  clientCert?: { cert: string; key: string };
  /** Replaces the global `fetch` (a test double, a proxying fetch, …). */
  fetch?: FetchFunction;
}

/** The subset of `fetch` the client uses; `dispatcher` is undici's extension. */
export type FetchFunction = (url: string, init: RequestInit & { dispatcher?: Dispatcher }) => Promise<Response>;

/** A parsed answer of any status: `body` is the JSON value, the raw text if not JSON, or undefined if empty. */
export interface RawResponse {
  status: number;
  body: unknown;
}

export interface SendOptions {
  /** JSON body (only sent when defined). */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** Overrides the client's token for this request. */
  token?: string;
  /** Media type of the body (default `application/json`; PATCH uses `application/merge-patch+json`). */
  contentType?: string;
  /** Bytes to send as they are (`application/octet-stream`) instead of a JSON `body`: a snapshot. */
  bytes?: ReadableStream<Uint8Array> | Uint8Array;
  /** Never wrapped, even with `wrapTtl`: a lookup the client makes for itself (which KV version a mount is). */
  isUnwrapped?: boolean;
}

/** One HTTP exchange with `/v1/<path>`; the layer every typed method is built on. */
export interface Transport {
  readonly address: string;
  readonly token: string | undefined;
  /** Never throws for a status: the caller decides what a 404 means. Throws `ConnectionError`. */
  send(method: string, path: string, options?: SendOptions): Promise<RawResponse>;
  /** As `send`, but a status ≥ 400 throws `ApiError`. */
  call(method: string, path: string, options?: SendOptions): Promise<RawResponse>;
  /** A GET whose answer is bytes (a snapshot, the log), handed over unread; a status ≥ 400 throws `ApiError`. */
  download(path: string, query?: SendOptions['query']): Promise<ReadableStream<Uint8Array>>;
  /** The typed error for a failed answer to `method path`. */
  errorFor(res: RawResponse, method: string, path: string): ApiError;
  /** The same connection settings with another token. */
  withToken(token: string): Transport;
  /** Closes the TLS connection pool, if one was made; idle sockets would otherwise delay exit. */
  close(): Promise<void>;
}

export function createTransport(options: ClientOptions): Transport {
  const dispatcher =
    options.caCert !== undefined || options.skipVerify || options.clientCert
      ? new Agent({
          connect: {
            ...(options.caCert !== undefined ? { ca: options.caCert } : {}),
            ...(options.clientCert ? { cert: options.clientCert.cert, key: options.clientCert.key } : {}),
            rejectUnauthorized: !options.skipVerify,
          },
        })
      : undefined;
  return transportWith(options, dispatcher);
}

function transportWith(options: ClientOptions, dispatcher: Dispatcher | undefined): Transport {
  const doFetch: FetchFunction = options.fetch ?? fetch;
  const base = options.address.replace(/\/+$/, '');
  const exchange = async (method: string, path: string, o: SendOptions = {}): Promise<Response> => {
    const url = `${base}/v1/${encodePath(path)}${queryString(o.query)}`;
    const headers: Record<string, string> = { 'X-Vault-Request': 'true' };
    const token = o.token ?? options.token;
    if (token) headers['X-Vault-Token'] = token;
    if (options.namespace) headers['X-Vault-Namespace'] = options.namespace;
    if (options.wrapTtl && !o.isUnwrapped) headers['X-Vault-Wrap-TTL'] = options.wrapTtl;
    if (o.bytes !== undefined) headers['Content-Type'] = 'application/octet-stream';
    else if (o.body !== undefined) headers['Content-Type'] = o.contentType ?? 'application/json';
    try {
      return await doFetch(url, {
        method,
        headers,
        ...(o.bytes !== undefined ? { body: o.bytes, duplex: 'half' } : {}),
        ...(o.bytes === undefined && o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
        ...(dispatcher ? { dispatcher } : {}),
      } as RequestInit);
    } catch (err) {
      throw new ConnectionError(method, url, err);
    }
  };
  const send = async (method: string, path: string, o: SendOptions = {}): Promise<RawResponse> => {
    const res = await exchange(method, path, o);
    return { status: res.status, body: parseBody(await res.text()) };
  };
  return {
    address: base,
    token: options.token || undefined,
    send,
    async call(method, path, o) {
      const res = await send(method, path, o);
      if (res.status >= 400) throw apiError(res, method, `${base}/v1/${encodePath(path)}`);
      return res;
    },
    async download(path, query) {
      const res = await exchange('GET', path, { query });
      if (res.status >= 400 || !res.body) {
        throw apiError(
          { status: res.status, body: parseBody(await res.text()) },
          'GET',
          `${base}/v1/${encodePath(path)}`,
        );
      }
      return res.body;
    },
    errorFor: (res, method, path) => apiError(res, method, `${base}/v1/${encodePath(path)}`),
    withToken: (token) => transportWith({ ...options, token }, dispatcher),
    close: async () => {
      await dispatcher?.close();
    },
  };
}

/** The typed error of a failed answer; its `errors` come from the body when it has them. */
function apiError(res: RawResponse, method: string, url: string): ApiError {
  const errors = (res.body as { errors?: unknown } | undefined)?.errors;
  const list = Array.isArray(errors) ? errors.map(String) : typeof res.body === 'string' ? [res.body] : [];
  return new ApiError(res.status, list, method, url);
}

/** Segments are escaped one by one so `/` stays a separator and `?`/`#` cannot cut the path short. */
function encodePath(path: string): string {
  return path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
}

function queryString(query: Record<string, string | undefined> | undefined): string {
  if (!query) return '';
  const entries = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined);
  return entries.length > 0 ? `?${new URLSearchParams(entries).toString()}` : '';
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
