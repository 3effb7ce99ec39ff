import { X509Certificate } from 'node:crypto';
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  Agent as PlainAgent,
  request as plainRequest,
  type ServerResponse,
} from 'node:http';
import { Agent, request } from 'node:https';
import type { Clock, Logger } from '@ward/base';
import type { ClusterTls, HaNodeInfo, LeaderAddresses } from '../core/ha/index.js';

/** What the forwarder asks of the core: where the active server is, and the cluster's TLS material. */
export interface ForwardingCore {
  haStatus(): Promise<{ leader?: LeaderAddresses }>;
  clusterTls(): Promise<ClusterTls | undefined>;
}

/** One client request, already checked against the receiving listener's limits, with its body read. */
export interface ForwardRequest {
  method: string;
  /** Path and query, as the client sent them (`/v1/...`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The client's address: the active server audits it and checks tokens' `bound_cidrs` against it. */
  remoteAddress: string;
}

/** The forwarded client's address; the active server believes it only on the mutual-TLS cluster channel. */
export const FORWARDED_FOR_HEADER = 'x-ward-forwarded-for';
/** Set by a cluster listener whose server is not active (any more): the forwarder asks the lock again. */
export const NOT_ACTIVE_HEADER = 'x-ward-not-active';
/** Names the worker process that received the request (`workers` > 1): `X-Ward-Worker: 2`. */
export const WORKER_HEADER = 'x-ward-worker';
/** A cluster address naming a Unix socket (the worker processes of one server). */
export const UNIX_PREFIX = 'unix://';
/** The name peers present in TLS; they are checked against the cluster certificate itself, not a host name. */
const CLUSTER_SERVER_NAME = 'ward-cluster';
/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the forwarder sets itself. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  FORWARDED_FOR_HEADER,
  // The answer names the worker the client reached, not the one that served it for that worker.
  WORKER_HEADER,
]);
/** How often, and how long apart, a forward is retried while no active server answers (a takeover in progress). */
const ATTEMPTS = 3;
const RETRY_MS = 500;
/**
 * Between the worker processes of one server a takeover is quicker (a dead holder's lock is taken
 * at the next 100 ms poll), so a forward is retried sooner and more often, over about the same time.
 */
const LOCAL_ATTEMPTS = 15;
const LOCAL_RETRY_MS = 100;

export type ForwardOutcome = 'answered' | 'unreachable';

type Target = { url: URL; agent: Agent } | { socketPath: string; agent: PlainAgent };

/**
 * A standby's channel to the active server: requests go over HTTPS to the active's `cluster_addr`,
 * both ends presenting the cluster certificate, which lives behind the barrier; so only a server
 * unsealed with the cluster's keys can forward, and only to the cluster's active server.
 */
export class ClusterForwarder {
  readonly #core: ForwardingCore;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #agent: { fingerprint: string; agent: Agent } | undefined;
  /** For the worker processes of one server: plain HTTP over Unix sockets, kept alive. */
  readonly #plainAgent = new PlainAgent({ keepAlive: true });
  /** The active server was last found on a Unix socket: a worker of this same server. */
  #isLocal = false;
  #cached: Target | undefined;

  constructor(deps: { core: ForwardingCore; clock: Clock; logger: Logger }) {
    this.#core = deps.core;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
  }

  /**
   * Sends `fr` to the active server and relays its answer to `res`. `unreachable` when no request
   * reached an active server (none known, no cluster TLS yet, connection refused): the caller may
   * redirect. A failure after the request was sent rejects, as a retry could apply it twice.
   */
  async forward(fr: ForwardRequest, res: ServerResponse): Promise<ForwardOutcome> {
    for (let attempt = 0; attempt < (this.#isLocal ? LOCAL_ATTEMPTS : ATTEMPTS); attempt++) {
      const retryMs = this.#isLocal ? LOCAL_RETRY_MS : RETRY_MS;
      if (attempt > 0) await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, retryMs));
      const target = await this.#target();
      if (!target) continue;
      const answer = await this.#send(target, fr).catch((err: unknown) => {
        this.#cached = undefined;
        throw err;
      });
      if (answer === 'unreachable' || answer.headers[NOT_ACTIVE_HEADER] !== undefined) {
        // Another server may be active by now: ask the lock again.
        this.#cached = undefined;
        if (answer !== 'unreachable') answer.resume();
        continue;
      }
      await relay(answer, res);
      return 'answered';
    }
    return 'unreachable';
  }

  /** A standby tells the active server it is there (`sys/ha-status`); failures only mean no echo this time. */
  async echo(self: HaNodeInfo): Promise<void> {
    const target = await this.#target();
    if (!target) return;
    const body = Buffer.from(JSON.stringify(self));
    const fr = { method: 'POST', url: '/cluster/echo', headers: { 'content-type': 'application/json' }, body };
    const answer = await this.#send(target, { ...fr, remoteAddress: '' }).catch((err: Error) => {
      this.#logger.debug('HA: echo to the active server failed', { error: err.message });
      return 'unreachable' as const;
    });
    if (answer === 'unreachable' || answer.headers[NOT_ACTIVE_HEADER] !== undefined) this.#cached = undefined;
    if (answer !== 'unreachable') answer.resume();
  }

  close(): void {
    this.#plainAgent.destroy();
    this.#agent?.agent.destroy();
    this.#agent = undefined;
    this.#cached = undefined;
  }

  /**
   * The active server's cluster address and an agent holding the cluster certificate; kept until a
   * forward fails (refused, or answered by a server no longer active), so a forward costs no etcd read.
   */
  async #target(): Promise<Target | undefined> {
    if (this.#cached) return this.#cached;
    const { leader } = await this.#core.haStatus();
    if (leader?.clusterAddr.startsWith(UNIX_PREFIX)) {
      this.#isLocal = true;
      this.#cached = { socketPath: leader.clusterAddr.slice(UNIX_PREFIX.length), agent: this.#plainAgent };
      return this.#cached;
    }
    const tls = await this.#core.clusterTls();
    if (!leader?.clusterAddr || !tls) return undefined;
    const address = leader.clusterAddr.includes('://') ? leader.clusterAddr : `https://${leader.clusterAddr}`;
    this.#cached = { url: new URL(address), agent: this.#agentFor(tls) };
    return this.#cached;
  }

  /** One keep-alive agent per cluster certificate, which checks the peer presents that very certificate. */
  #agentFor(tls: ClusterTls): Agent {
    const fingerprint = new X509Certificate(tls.cert).fingerprint256;
    if (this.#agent?.fingerprint === fingerprint) return this.#agent.agent;
    this.#agent?.agent.destroy();
    const agent = new Agent({
      keepAlive: true,
      cert: tls.cert,
      key: tls.key,
      ca: tls.cert,
      servername: CLUSTER_SERVER_NAME,
      checkServerIdentity: (_host, peer) =>
        peer.fingerprint256 === fingerprint ? undefined : new Error('the peer is not the cluster'),
    });
    this.#agent = { fingerprint, agent };
    return agent;
  }

  #send(target: Target, fr: ForwardRequest): Promise<IncomingMessage | 'unreachable'> {
    const { method, url } = listAsQuery(fr.method, fr.url);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(fr.headers)) {
      if (value !== undefined && !NOT_FORWARDED.has(name) && !name.startsWith('x-ward-list-')) headers[name] = value;
    }
    headers[FORWARDED_FOR_HEADER] = fr.remoteAddress;
    headers['content-length'] = String(fr.body.length);
    return new Promise((resolve, reject) => {
      const outgoing =
        'socketPath' in target
          ? plainRequest({ socketPath: target.socketPath, method, path: url, headers, agent: target.agent }, resolve)
          : request(
              {
                hostname: target.url.hostname,
                port: target.url.port || 8201,
                method,
                path: url,
                headers,
                agent: target.agent,
              },
              resolve,
            );
      // Until a fresh connection's handshake completes, nothing of the request has reached the peer.
      let mayHaveSent = false;
      outgoing.on('socket', (socket) => {
        if (outgoing.reusedSocket) mayHaveSent = true;
        else
          socket.once('socketPath' in target ? 'connect' : 'secureConnect', () => {
            mayHaveSent = true;
          });
      });
      outgoing.on('error', (err) => {
        if (mayHaveSent) reject(err);
        else {
          this.#logger.debug('HA: could not reach the active server', { error: err.message });
          resolve('unreachable');
        }
      });
      outgoing.end(fr.body);
    });
  }
}

/** `LIST` is no HTTP method Node's parser accepts: it travels as `GET ?list=true`, which means the same. */
function listAsQuery(method: string, url: string): { method: string; url: string } {
  if (method !== 'LIST') return { method, url };
  return { method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}list=true` };
}

/** Relays the active server's answer: status, end-to-end headers, body. */
function relay(answer: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: string[] = [];
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i] ?? '';
    if (!NOT_FORWARDED.has(name.toLowerCase())) headers.push(name, answer.rawHeaders[i + 1] ?? '');
  }
  res.writeHead(answer.statusCode ?? 502, headers);
  return new Promise((resolve, reject) => {
    answer.on('error', reject);
    answer.on('end', () => resolve());
    answer.pipe(res);
  });
}
