import { chmodSync, rmSync } from 'node:fs';
import { createServer as createPlainServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIP } from 'node:net';
import type { ClusterTls, HaNodeInfo } from '../core/ha/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import { FORWARDED_FOR_HEADER, NOT_ACTIVE_HEADER, UNIX_PREFIX } from './cluster-forwarder.js';
import { parseJsonText } from './json-body.js';
import { readBody } from './read-body.js';
import { sendJson } from './respond.js';

/** What the cluster listener asks of the core. */
export interface ClusterCore {
  /** Active: holds the lock and serves (neither sealed nor standby). */
  isActive(): boolean;
  recordEcho(node: HaNodeInfo): void;
}

export interface ClusterListenerOptions {
  /**
   * `cluster_addr` (`https://host:port`); port 0 picks a free one, which the server then advertises.
   * `unix:///path`: the worker processes of one server, plain HTTP on a Unix socket only the owner can open.
   */
  clusterAddr: string;
  /** A listener's `cluster_address` (`host:port`): where to bind, when not where `clusterAddr` points. */
  bindAddress?: string;
  core: ClusterCore;
  /** The API handler forwarded requests go to; the standby already applied its listener's limits. */
  apiHandler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** An echo is a few addresses: anything larger is not one. */
const MAX_ECHO_BYTES = 16 * 1024;
/** Forwarding standbys keep connections open: idle ones are closed only after this long. */
const KEEP_ALIVE_MS = 5 * 60_000;

/**
 * The server-to-server listener at `cluster_addr`: HTTPS where the client must present the cluster
 * certificate (mutual TLS). It has no certificate until its server first becomes active (the pair
 * lives behind the barrier), so until then every handshake fails. Only the active server serves
 * forwarded requests; any other answers 503 with NOT_ACTIVE_HEADER so the standby asks the lock again.
 */
export class ClusterListener {
  readonly #o: ClusterListenerOptions;
  readonly #server: Server | ReturnType<typeof createPlainServer>;
  /** Set for a Unix socket (`unix://` cluster_addr): the file permissions guard the channel, not TLS. */
  readonly #socketPath: string | undefined;
  #url = '';
  /** The certificate in use, if any. */
  #cert: string | undefined;

  constructor(options: ClusterListenerOptions) {
    this.#o = options;
    this.#socketPath = options.clusterAddr.startsWith(UNIX_PREFIX)
      ? options.clusterAddr.slice(UNIX_PREFIX.length)
      : undefined;
    const serve = (req: IncomingMessage, res: ServerResponse) => this.#serve(req, res);
    this.#server = this.#socketPath
      ? createPlainServer(serve)
      : createServer({ requestCert: true, rejectUnauthorized: true }, serve);
    this.#server.keepAliveTimeout = KEEP_ALIVE_MS;
  }

  /** The address to advertise, with the bound port. */
  get url(): string {
    return this.#url;
  }

  async listen(): Promise<string> {
    if (this.#socketPath) return this.#listenUnix(this.#socketPath);
    const asUrl = (a: string) => new URL(a.includes('://') ? a : `https://${a}`);
    const url = asUrl(this.#o.clusterAddr);
    const bind = this.#o.bindAddress ? asUrl(this.#o.bindAddress) : url;
    const name = bind.hostname.replace(/^\[|\]$/g, '');
    // A host name is what peers dial, not necessarily an interface of this machine: listen on all of them.
    const host = isIP(name) ? name : '::';
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(Number(bind.port || 8201), host, () => resolve());
    });
    const address = this.#server.address();
    // The bound port is advertised, unless a separate bind address leaves cluster_addr's own port (a NAT, a proxy).
    const isOwnPort = this.#o.bindAddress !== undefined && url.port !== '0' && url.port !== '';
    if (typeof address === 'object' && address !== null && !isOwnPort) url.port = String(address.port);
    this.#url = url.origin;
    return this.#url;
  }

  /** A socket file left by a process killed before it closed is replaced; the file is the owner's alone (0600). */
  async #listenUnix(path: string): Promise<string> {
    rmSync(path, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      // Exclusive: in a cluster worker the socket is this process's own, not one shared through the primary.
      this.#server.listen({ path, exclusive: true }, () => resolve());
    });
    chmodSync(path, 0o600);
    this.#url = `${UNIX_PREFIX}${path}`;
    return this.#url;
  }

  /** The cluster's pair: from now on peers holding it can connect (nothing to do on a Unix socket). */
  useTls(tls: ClusterTls): void {
    if (tls.cert === this.#cert || !('setSecureContext' in this.#server)) return;
    this.#server.setSecureContext({ cert: tls.cert, key: tls.key, ca: tls.cert });
    this.#cert = tls.cert;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  #serve(req: IncomingMessage, res: ServerResponse): void {
    if (!this.#o.core.isActive()) {
      req.resume();
      res.setHeader(NOT_ACTIVE_HEADER, 'true');
      sendJson(res, 503, { errors: ['this server is not the active server'] });
      return;
    }
    if (req.url === '/cluster/echo' && req.method === 'POST') {
      this.#echo(req).then(
        () => {
          res.writeHead(204);
          res.end();
        },
        (err: Error) => sendJson(res, 400, { errors: [err.message] }),
      );
      return;
    }
    this.#o.apiHandler(req, res);
  }

  async #echo(req: IncomingMessage): Promise<void> {
    const parsed = parseJsonText((await readBody(req, MAX_ECHO_BYTES)).toString('utf8'), {
      maxDepth: 2,
      maxStringValueLength: 1024,
      maxObjectEntryCount: 16,
      maxArrayElementCount: 0,
    }) as Record<string, unknown> | undefined;
    const field = (name: keyof HaNodeInfo) => {
      const value = parsed?.[name];
      if (typeof value !== 'string') throw new InvalidRequestError(`echo: ${name} must be a string`);
      return value;
    };
    this.#o.core.recordEcho({
      hostname: field('hostname'),
      apiAddr: field('apiAddr'),
      clusterAddr: field('clusterAddr'),
      version: field('version'),
    });
  }
}

/**
 * The client's address as the standby that forwarded the request saw it: tokens' `bound_cidrs` and
 * the audit log judge the client, not the standby. Believed only on this mutual-TLS channel.
 */
export function forwardedClientAddress(req: IncomingMessage): string {
  const client = req.headers[FORWARDED_FOR_HEADER];
  return typeof client === 'string' ? client : (req.socket.remoteAddress ?? '');
}
