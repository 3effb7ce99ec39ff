import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@ward/base';
import { closeAfterResponse, readBody } from '../http/read-body.js';
import { checkRequestHeader } from '../http/request-header.js';
import { sendError } from '../http/respond.js';
import { RequestTooLargeError } from '../logical/errors.js';
import type { AutoAuth } from './auto-auth.js';
import type { UseAutoAuthToken } from './config.js';
import type { LeaseCache } from './lease-cache.js';
import { serveProxyApi } from './proxy-api.js';
import { parseRevocation } from './revocation.js';
import type { BufferedResponse, Upstream, UpstreamResponse } from './upstream.js';

export interface ProxyHandlerOptions {
  upstream: Upstream;
  autoAuth?: AutoAuth;
  useAutoAuthToken: UseAutoAuthToken;
  cache?: LeaseCache;
  /** The listener's `require_request_header`. */
  requireRequestHeader: boolean;
  /** The listener's body limit (bytes; negative: none), applied when the cache must read a body. */
  maxRequestSize: number;
  /** `proxy_api { enable_quit = true }` on this listener. */
  isQuitEnabled: boolean;
  /** Called by `POST /proxy/v1/quit`. */
  onQuit(): void;
  logger: Logger;
}

/** How long a request that needs the proxy's token waits for the first login before going without. */
const FIRST_LOGIN_WAIT_MS = 10_000;

const EMPTY_BODY = Buffer.alloc(0);

/** The token a request is forwarded with, and whether it is the proxy's own. */
interface ChosenToken {
  headers: OutgoingHttpHeaders;
  token: string;
  isAutoAuth: boolean;
}

/**
 * The proxy's request handler: `/proxy/v1/*` is the proxy's own API; everything else is forwarded
 * to the server unchanged (method, path, query, headers, body), with the proxy's token added when
 * `use_auto_auth_token` says so, through the lease cache when there is one, and the server's answer
 * is relayed unchanged.
 */
export function createProxyHandler(o: ProxyHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(o, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A body the server never took is left unread: do not make the client send the rest first.
      if (err instanceof RequestTooLargeError || (hasBody(req) && !req.readableEnded)) closeAfterResponse(req, res);
      sendError(res, err, o.logger);
    });
  };
}

async function serve(o: ProxyHandlerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = req.url ?? '/';
  const pathname = target.split('?', 1)[0] ?? '/';
  if (pathname.startsWith('/proxy/v1/')) return serveProxyApi(o, req, res, pathname);
  if (o.requireRequestHeader) checkRequestHeader(req);
  const clientToken = clientTokenOf(req);
  const wantsOwn = o.useAutoAuthToken === 'force' || (o.useAutoAuthToken === true && !clientToken);
  if (wantsOwn && o.autoAuth?.token === undefined) await o.autoAuth?.awaitToken(FIRST_LOGIN_WAIT_MS);
  const chosen = chooseToken(o, req, clientToken, wantsOwn);
  const method = req.method ?? 'GET';
  if (o.cache) return serveThroughCache(o, o.cache, req, res, { method, target, pathname, chosen });

  const upstream = await o.upstream.send({
    method,
    target,
    headers: chosen.headers,
    body: hasBody(req) ? req : undefined,
  });
  if (chosen.isAutoAuth && (upstream.status === 403 || isSelfTokenPath(pathname))) {
    // Read it whole: the answer may name the proxy's token, or show that the token was revoked.
    const buffered = await bufferResponse(upstream);
    await afterAutoAuthResponse(o, chosen, pathname, buffered);
    return sendBuffered(res, buffered, {});
  }
  res.writeHead(upstream.status, upstream.headers);
  await pipeline(upstream.body, res);
}

interface ForwardInput {
  method: string;
  target: string;
  pathname: string;
  chosen: ChosenToken;
}

/** Reads the body (the cache key covers it), answers from the cache or forwards and maybe stores. */
async function serveThroughCache(
  o: ProxyHandlerOptions,
  cache: LeaseCache,
  req: IncomingMessage,
  res: ServerResponse,
  { method, target, pathname, chosen }: ForwardInput,
): Promise<void> {
  const body = hasBody(req) ? await readBody(req, o.maxRequestSize) : EMPTY_BODY;
  const key = cache.keyOf({ method, target, token: chosen.token, headers: req.headers, body });
  const hit = cache.get(key);
  if (hit) return sendBuffered(res, hit.response, { 'x-cache': 'HIT', age: String(hit.ageSeconds) });

  const response = await o.upstream.sendForWhole({
    method,
    target,
    headers: chosen.headers,
    body: body.length > 0 ? body : undefined,
  });
  if (response.status === 204) {
    const revocation = parseRevocation(pathname, body, chosen.token);
    if (revocation) cache.evictRevoked(revocation);
  }
  cache.store(
    { key, pathname, namespace: String(req.headers['x-vault-namespace'] ?? ''), token: chosen.token },
    response,
  );
  if (chosen.isAutoAuth) await afterAutoAuthResponse(o, chosen, pathname, response);
  sendBuffered(res, response, { 'x-cache': 'MISS' });
}

/**
 * `true`: the proxy's token when the client sent none; `force`: the proxy's token always. A client
 * token is `X-Vault-Token`, or `Authorization: Bearer …` as the server accepts it.
 */
function chooseToken(
  o: ProxyHandlerOptions,
  req: IncomingMessage,
  clientToken: string,
  wantsOwn: boolean,
): ChosenToken {
  const headers: OutgoingHttpHeaders = { ...req.headers };
  const ownToken = wantsOwn ? o.autoAuth?.token : undefined;
  if (wantsOwn) {
    // Under `force` the client's token never reaches the server, even when the proxy has none yet.
    delete headers['x-vault-token'];
    if (bearerToken(req.headers.authorization)) delete headers.authorization;
  }
  if (ownToken === undefined) return { headers, token: wantsOwn ? '' : clientToken, isAutoAuth: false };
  headers['x-vault-token'] = ownToken;
  return { headers, token: ownToken, isAutoAuth: true };
}

/**
 * After an answer to a request made with the proxy's token: a 403 may mean the token was revoked
 * (log in again before answering, so the client's next request succeeds), and a lookup or renewal
 * of the proxy's own token must not hand the token or its accessor to a client that had none.
 */
async function afterAutoAuthResponse(
  o: ProxyHandlerOptions,
  chosen: ChosenToken,
  pathname: string,
  response: BufferedResponse,
): Promise<void> {
  if (response.status === 403) await o.autoAuth?.reportRejected(chosen.token);
  if (response.status === 200 && isSelfTokenPath(pathname)) response.body = withoutOwnToken(response.body);
}

const SELF_TOKEN_PATH = /\/auth\/token\/(?:lookup-self|renew-self)$/;

function isSelfTokenPath(pathname: string): boolean {
  return SELF_TOKEN_PATH.test(pathname);
}

function withoutOwnToken(body: Buffer): Buffer {
  let envelope: { data?: Record<string, unknown> | null; auth?: Record<string, unknown> | null };
  try {
    envelope = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  if (envelope.data) {
    delete envelope.data.id;
    delete envelope.data.accessor;
  }
  if (envelope.auth) {
    envelope.auth.client_token = '';
    envelope.auth.accessor = '';
  }
  return Buffer.from(JSON.stringify(envelope));
}

function clientTokenOf(req: IncomingMessage): string {
  return String(req.headers['x-vault-token'] ?? '') || bearerToken(req.headers.authorization);
}

function bearerToken(authorization: string | undefined): string {
  return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : '';
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

async function bufferResponse(upstream: UpstreamResponse): Promise<BufferedResponse> {
  const chunks: Buffer[] = [];
  for await (const chunk of upstream.body) chunks.push(chunk as Buffer);
  return { status: upstream.status, headers: upstream.headers, body: Buffer.concat(chunks) };
}

function sendBuffered(res: ServerResponse, response: BufferedResponse, extra: Record<string, string>): void {
  const headers: OutgoingHttpHeaders = { ...response.headers, ...extra };
  // The body may have been rewritten; the server's length would no longer be true.
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = response.body.length;
  res.writeHead(response.status, headers);
  res.end(response.body);
}
