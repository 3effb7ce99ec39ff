/** The agent's HTTP API: the route table, its handlers, request parsing and replies. @module */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Clock, Logger } from '@ward/base';
import { MethodNotAllowedError, NotApplicableError, NotFoundError } from '../errors.js';
import type { AgentServices, Requirement } from '../services.js';
import type { Listener, StreamNetwork } from '../streams.js';
import { type AgentRequest, parseJsonBody, readBody, requestToken } from './request.js';
import { sendError, sendReply } from './respond.js';
import { matchRoute } from './routes.js';

/**
 * What serving the API needs: the clock and log for the request log, the agent's kinds for
 * server- and client-only routes, the ACL check made before each handler, and what the
 * handlers are given (each reads only its own view of it).
 */
export interface HttpApi {
  readonly clock: Clock;
  readonly log: Logger;
  readonly isServer: boolean;
  readonly isClient: boolean;
  authorize(token: string | undefined, need: Requirement): Promise<void>;
  readonly services: AgentServices;
}

/** The agent's HTTP API: translates requests to route handlers and their replies to bytes. */
export class HttpServer {
  private constructor(private readonly listener: Listener) {}

  /** Serves `api` on `bind:port` of `streams`. */
  static async listen(streams: StreamNetwork, api: HttpApi, bind: string, port: number): Promise<HttpServer> {
    const server = createServer((req, res) => void handle(api, req, res));
    return new HttpServer(await streams.listen(server, bind, port));
  }

  get port(): number {
    return this.listener.port;
  }

  async close(): Promise<void> {
    await this.listener.close();
  }
}

async function handle(api: HttpApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startMs = api.clock.now();
  const url = new URL(req.url ?? '/', 'http://agent');
  const method = req.method ?? 'GET';
  const log = api.log.child({ '@module': 'http' });
  log.trace('http: request received', { method, path: url.pathname });
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let status = 200;
  try {
    const match = matchRoute(method, url.pathname);
    if (!match) throw new NotFoundError('404 page not found');
    if (match === 'wrong-method') throw new MethodNotAllowedError();
    const { route, params } = match;
    const raw = await readBody(req);
    if ((route.role === 'server' && !api.isServer) || (route.role === 'client' && !api.isClient)) {
      throw new NotApplicableError();
    }
    const request: AgentRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      params,
      token: requestToken(req),
      signal: abort.signal,
      body: async () => parseJsonBody(raw),
    };
    await api.authorize(request.token, route.need);
    const reply = await route.handler(api.services, request);
    const pretty = url.searchParams.get('pretty');
    await sendReply(res, reply, {
      isPretty: pretty !== null && pretty !== '0',
      acceptsGzip: /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')),
      signal: abort.signal,
    });
  } catch (err) {
    status = sendError(res, err, log);
  }
  log.debug('http: request complete', {
    method,
    path: url.pathname,
    status,
    duration_ms: api.clock.now() - startMs,
  });
}
