import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, isIPv6, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type SecureVersion, type TLSSocket, type TlsOptions } from 'node:tls';
import { InternalError, InvalidRequestError } from '../logical/errors.js';
import { ConnectionQueue } from './connection-queue.js';
import { listRequestBytes, type ParserError, takeBackFromHttpServer } from './list-switch.js';
import { MethodShim } from './method-shim.js';
import { answerPlainHttp } from './plain-http-answer.js';
import { parserRefusal, type Refusal, requestLineRefusal, sendRefusal, writeRefusal } from './protocol-errors.js';
import { createProxyAcceptor, takePeerOfReplay } from './proxy-accept.js';
import type { ProxyProtocolPolicy } from './proxy-protocol.js';
import { ShimSocket } from './shim-socket.js';

/** `max_request_size` when the configuration gives none or 0: 32 MiB, as established servers use. */
export const DEFAULT_MAX_REQUEST_SIZE = 32 * 1024 * 1024;
/** Established servers' `max_request_duration`. */
const DEFAULT_REQUEST_TIMEOUT_MS = 90_000;
/** Established servers' `http_read_header_timeout`. */
const HEADERS_TIMEOUT_MS = 10_000;
/** Established servers' `http_idle_timeout`: clients keep idle connections for minutes, not seconds. */
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5 * 60_000;
/** How often Node checks the two timeouts above; its default (30 s) would stretch 10 s to 40 s. */
const TIMEOUT_CHECK_INTERVAL_MS = 2_000;
const DEFAULT_CLOSE_GRACE_MS = 10_000;
/** Every header named so is ours: the shim's marker, and anything a client sends to imitate it. */
const MARKER_PREFIX = 'x-ward-list-';

export interface ListenerTlsOptions {
  cert: string | Buffer;
  key: string | Buffer;
  /**
   * CAs for client certificates. Without `clientCerts`, giving it asks clients for a certificate
   * without requiring one.
   */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Lowest and highest protocol versions (Node's defaults where absent). */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
  /** OpenSSL cipher list for TLS 1.2 and below. */
  ciphers?: string;
  /**
   * `request`: ask every client for a certificate, accept any (certificate login reads it);
   * `require`: refuse a handshake without a certificate that `ca` (or the system roots) verifies;
   * `none`: do not ask.
   */
  clientCerts?: 'request' | 'require' | 'none';
}

export interface ListenerOptions {
  /** `host:port`: `127.0.0.1:8200`, `[::1]:8200`, or `:8200` for every interface. Port 0 picks a free one. */
  address: string;
  /** Listen on a Unix domain socket at this path instead of `address`. */
  socketPath?: string;
  /** Serve HTTPS with this certificate; plain HTTP without it. */
  tls?: ListenerTlsOptions;
  /** Largest request body in bytes (`max_request_size`): 0 or absent means 32 MiB, negative means no limit. */
  maxRequestSize?: number;
  /** Called for every request, after a LIST request has got its method back (`req.method === 'LIST'`). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** How long an idle keep-alive connection stays open; default 5 minutes. */
  keepAliveTimeoutMs?: number;
  /** Longest time to receive a whole request (`max_request_duration`); default 90 s; 0 means no limit. */
  requestTimeoutMs?: number;
  /** Read a PROXY protocol header (v1 or v2) at the start of each connection, before TLS. */
  proxyProtocol?: ProxyProtocolPolicy;
}

export interface ListenerAddress {
  /** The address bound, e.g. `127.0.0.1`, `::1`, or `::` for every interface; a Unix socket's path. */
  host: string;
  port: number;
  /** Where a client on this machine reaches it: `http://` or `https://`, loopback for every interface; `unix://<path>`. */
  url: string;
}

export interface Listener {
  /** The body limit readBody should use for requests from this listener; negative means none. */
  readonly maxRequestSize: number;
  /** The address of the request's client: the connection's peer, or what its PROXY header said. */
  clientAddress(req: IncomingMessage): string;
  /** Binds the address. Rejects if it is taken or invalid. */
  listen(): Promise<ListenerAddress>;
  /**
   * Stops accepting connections, closes idle ones, lets requests in progress finish (their responses
   * say `Connection: close`), and destroys whatever is still open after `graceMs` (default 10 s).
   * Resolves with how many connections had to be destroyed that way (0 for a clean shutdown).
   */
  close(options?: { graceMs?: number }): Promise<{ forcedClosed: number }>;
}

/**
 * An HTTP/1.1 listener that accepts the `LIST` method on every kind of connection (keep-alive,
 * pipelined, chunked bodies, TLS). Connections are accepted by a plain net or TLS server and handed
 * to Node's HTTP server as they are, so its parser reads them in C++. When that parser refuses a
 * `LIST`, the connection moves, from that request on, onto a MethodShim that turns `LIST` into `GET`
 * plus a marker header only this listener knows; the request listener turns the marker back into
 * `req.method = 'LIST'` before calling `options.handler`. The handler never sees the marker.
 */
export function createListener(options: ListenerOptions): Listener {
  const { host, port } = options.socketPath ? { host: undefined, port: 0 } : parseAddress(options.address);
  const maxRequestSize = options.maxRequestSize || DEFAULT_MAX_REQUEST_SIZE;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Random per listener, so a client cannot name it. A client that could would only turn its own GET
  // into a LIST, which it may send anyway; the marker grants nothing.
  const marker = `${MARKER_PREFIX}${randomBytes(8).toString('hex')}`;
  const inFlight = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let isClosing = false;
  let closed: Promise<{ forcedClosed: number }> | undefined;

  const httpServer = createHttpServer({
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout,
    headersTimeout: requestTimeout > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeout) : HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    // Checked in dispatch instead, so the 400 carries the error envelope like every other.
    requireHostHeader: false,
  });
  const queue = new ConnectionQueue();
  // Shared by every request (a listener gets its response as `this`): nothing made per request.
  function leaveFlight(this: ServerResponse): void {
    inFlight.delete(this);
  }
  const drop = (_req: IncomingMessage, res: ServerResponse) => inFlight.delete(res);
  const refuseRequestLine = (req: IncomingMessage, res: ServerResponse) =>
    sendRefusal(req, res, requestLineRefusal(req) as Refusal);
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    restoreListMethod(req, marker);
    inFlight.add(res);
    res.once('close', leaveFlight);
    if (isClosing) {
      res.shouldKeepAlive = false;
      // Let the connection go as soon as this response is out, once Node has marked it idle.
      res.once('finish', () => setImmediate(() => httpServer.closeIdleConnections()));
    }
    queue.inTurn(req, res, requestLineRefusal(req) ? refuseRequestLine : options.handler, drop);
  };
  httpServer.on('request', dispatch);
  // What the parser refuses, and CONNECT (which Node hands over as a bare socket), is answered here
  // with the error envelope, after the responses to the requests before it on the connection.
  const refused = new WeakSet<Duplex>();
  const refuse = (socket: Duplex, refusal: Refusal) => {
    if (refused.has(socket)) return; // the parser reports its error again for every later packet
    refused.add(socket);
    const last = queue.lastExchange(socket);
    if (last && !last.req.complete && !last.res.headersSent) {
      // The fault is in the body of the request being received: it gets the refusal as its answer.
      // Its handler, if it has started, waits for a body that never ends until the connection closes.
      sendRefusal(last.req, last.res, refusal);
      return;
    }
    queue.afterLast(socket, () => (socket.writable ? writeRefusal(socket, refusal) : socket.destroy()));
  };
  httpServer.on('clientError', (err: Error & ParserError, socket: Duplex) => {
    if (err.code === 'ECONNRESET') socket.destroy();
    else if (!switchToShim(socket, err)) refuse(socket, parserRefusal(err));
  });
  /**
   * Moves a connection whose parser met `LIST` onto the shim, from that request on; false for any
   * other error, and on a connection already shimmed (where LIST is no longer the reason).
   */
  function switchToShim(socket: Duplex, err: ParserError): boolean {
    if (socket instanceof ShimSocket) return false;
    const listBytes = listRequestBytes(err);
    if (!listBytes || !takeBackFromHttpServer(socket as Socket)) return false;
    // The LIST sees, and is answered after, every request before it on the connection.
    queue.afterLast(socket, () => {
      if (socket.destroyed) return;
      httpServer.emit('connection', new ShimSocket(socket as Socket, new MethodShim(marker), listBytes));
    });
    return true;
  }
  httpServer.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    refuse(socket, { status: 405, message: 'unsupported method CONNECT' });
  });
  // Without this listener Node sends `100 Continue` to every `Expect: 100-continue`, and a client
  // that announced a body over the limit would send it all before hearing 413.
  httpServer.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (maxRequestSize < 0 || declared <= maxRequestSize) {
      res.writeContinue();
    } else {
      // The client may never send that body, so nothing after it on this connection can be parsed.
      res.shouldKeepAlive = false;
    }
    dispatch(req, res);
  });

  const tlsServer = options.tls
    ? // Half-open only once the handshake is done (see `hand`): before that, a client that gives up
      // (e.g. it does not trust the certificate) and closes its side would leave the socket in
      // CLOSE-WAIT, and shutdown would wait its whole grace period for it.
      createTlsServer({ ...tlsOptions(options.tls), allowHalfOpen: false, noDelay: true })
        .on('secureConnection', hand)
        .on('tlsClientError', (error: NodeJS.ErrnoException, socket: TLSSocket) => answerPlainHttp(error, socket))
    : undefined;
  const proxy = options.proxyProtocol ? createProxyAcceptor(options.proxyProtocol, tlsServer, hand) : undefined;
  const netServer: NetServer = proxy
    ? createNetServer({ allowHalfOpen: !tlsServer, noDelay: true }, (socket) => void proxy.accept(socket))
    : (tlsServer ?? createNetServer({ allowHalfOpen: true, noDelay: true }, hand));
  // The raw TCP sockets (under TLS too), so close() can destroy them when the grace period ends.
  netServer.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  function hand(socket: Socket): void {
    takePeerOfReplay(socket);
    if (isClosing) {
      socket.destroy();
      return;
    }
    // A client may half-close after its request and still read the response.
    socket.allowHalfOpen = true;
    // Node's parser reads straight from the socket until it meets a LIST (see `switchToShim`).
    httpServer.emit('connection', socket);
  }

  return {
    maxRequestSize,
    clientAddress: (req) => {
      const { remoteAddress = '', remotePort } = req.socket;
      return proxy?.clientOf(`${remoteAddress}:${remotePort}`) ?? remoteAddress;
    },
    listen: () =>
      new Promise<ListenerAddress>((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException) => reject(listenError(options.socketPath ?? options.address, err));
        netServer.once('error', onError);
        // Exclusive: in a cluster worker (`workers`) a Unix socket is the process's own, not shared through the primary.
        netServer.listen(options.socketPath ? { path: options.socketPath, exclusive: true } : { host, port }, () => {
          netServer.off('error', onError);
          // The http server never listens itself, but Node starts its timeout checks and the connection
          // list that closeIdleConnections() uses on 'listening'.
          httpServer.emit('listening');
          resolve(describeAddress(netServer, options.tls !== undefined));
        });
      }),
    close: ({ graceMs = DEFAULT_CLOSE_GRACE_MS } = {}) => {
      closed ??= closeGracefully(graceMs);
      return closed;
    },
  };

  async function closeGracefully(graceMs: number): Promise<{ forcedClosed: number }> {
    isClosing = true;
    // Resolves once every connection is gone (with an error we ignore if the listener never listened).
    const isDrained = new Promise<void>((resolve) => netServer.close(() => resolve()));
    for (const res of inFlight) {
      if (!res.headersSent) res.shouldKeepAlive = false;
      res.once('finish', () => setImmediate(() => httpServer.closeIdleConnections()));
    }
    httpServer.close(); // closes idle connections and stops the timeout checks
    let forcedClosed = 0;
    const timer = setTimeout(() => {
      forcedClosed = sockets.size;
      for (const socket of sockets) socket.destroy();
    }, graceMs);
    await isDrained;
    clearTimeout(timer);
    return { forcedClosed };
  }
}

/**
 * Gives a request rewritten by the shim its LIST method back, and removes every marker-like header,
 * so the handler sees what the client sent.
 */
function restoreListMethod(req: IncomingMessage, marker: string): void {
  const raw = req.rawHeaders;
  let isList = false;
  let distinct: NodeJS.Dict<string[]> | undefined;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]!;
    if (name.length < MARKER_PREFIX.length || (name.charCodeAt(0) | 0x20) !== 0x78) continue;
    const lower = name.toLowerCase();
    if (!lower.startsWith(MARKER_PREFIX)) continue;
    if (lower === marker) isList = true;
    // Node builds `headersDistinct` lazily from rawHeaders with the count it parsed: after a splice it
    // would read past the end. Build it while the list is still whole, and take the marker out of it too.
    distinct ??= req.headersDistinct;
    raw.splice(i, 2);
    delete req.headers[lower];
    delete distinct[lower];
  }
  // The shim rewrites LIST to GET only; the marker on any other method is not its doing.
  if (isList && req.method === 'GET') req.method = 'LIST';
}

const LISTEN_ERRORS = new Map([
  ['EADDRINUSE', 'address already in use'],
  ['EACCES', 'permission denied (ports below 1024 need privileges)'],
  ['EADDRNOTAVAIL', 'address not available on this host'],
]);

/** One line an operator can act on, instead of a stack trace: `listener 127.0.0.1:8200: address already in use`. */
function listenError(address: string, err: NodeJS.ErrnoException): Error {
  const text = LISTEN_ERRORS.get(err.code ?? '') ?? err.message;
  return new InvalidRequestError(`listener ${address}: ${text}`, { cause: err });
}

function parseAddress(address: string): { host: string | undefined; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):([0-9]{1,5})$/.exec(address);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new InvalidRequestError(`invalid listener address ${JSON.stringify(address)}: want host:port`);
  }
  return { host: match[1] ?? (match[2] || undefined), port };
}

/**
 * Unless told otherwise, clients are asked for a certificate but not required to send one, as the
 * established server asks by default: the `cert` auth method verifies it against its own trusted
 * certificates.
 */
function tlsOptions(options: ListenerTlsOptions): TlsOptions {
  const { cert, key, ca, minVersion, maxVersion, ciphers } = options;
  const clientCerts = options.clientCerts ?? 'request';
  return {
    cert,
    key,
    ...(ca === undefined ? {} : { ca }),
    ...(minVersion ? { minVersion } : {}),
    ...(maxVersion ? { maxVersion } : {}),
    ...(ciphers ? { ciphers } : {}),
    requestCert: clientCerts !== 'none',
    rejectUnauthorized: clientCerts === 'require',
  };
}

function describeAddress(server: NetServer, isTls: boolean): ListenerAddress {
  const bound = server.address();
  if (typeof bound === 'string') return { host: bound, port: 0, url: `unix://${bound}` };
  if (bound === null) throw new InternalError('listener is not bound');
  const host = bound.address;
  const reachable = host === '::' || host === '0.0.0.0' ? '127.0.0.1' : host;
  const urlHost = isIPv6(reachable) ? `[${reachable}]` : reachable;
  return { host, port: bound.port, url: `${isTls ? 'https' : 'http'}://${urlHost}:${bound.port}` };
}
