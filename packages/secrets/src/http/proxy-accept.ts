import type { Socket } from 'node:net';
import { type Duplex, Duplex as DuplexStream } from 'node:stream';
import type { Server as TlsServer } from 'node:tls';
import { type ProxyHeader, type ProxyProtocolPolicy, proxiedAddress, readProxyHeader } from './proxy-protocol.js';

/** Accepts connections that start with a PROXY protocol header, and remembers the clients they name. */
export interface ProxyAcceptor {
  /** Reads the header off `socket` (a connection without an acceptable one is destroyed), then hands it on. */
  accept(socket: Socket): Promise<void>;
  /** The client a PROXY header gave for the connection from `peer` (`address:port`), if any. */
  clientOf(peer: string): string | undefined;
}

/**
 * `hand` takes a plain connection once its header is read; with `tlsServer`, the connection is
 * given to TLS instead, through a stream that replays the bytes read past the header.
 */
export function createProxyAcceptor(
  policy: ProxyProtocolPolicy,
  tlsServer: TlsServer | undefined,
  hand: (socket: Socket) => void,
): ProxyAcceptor {
  // Client addresses PROXY headers gave, by the connection's peer `address:port` (a TLS socket and
  // the TCP socket under it report the same peer).
  const proxiedClients = new Map<string, string>();
  return {
    async accept(socket) {
      let client: string | undefined;
      let header: ProxyHeader | undefined;
      try {
        header = await readProxyHeader(socket);
        client = proxiedAddress(policy, socket.remoteAddress ?? '', header);
      } catch {
        client = undefined;
      }
      if (client === undefined || header === undefined) {
        socket.destroy();
        return;
      }
      const peer = `${socket.remoteAddress}:${socket.remotePort}`;
      proxiedClients.set(peer, client);
      socket.once('close', () => proxiedClients.delete(peer));
      if (tlsServer) {
        tlsServer.emit('connection', replayingStream(socket, header.rest));
        return;
      }
      if (header.rest.length > 0) socket.unshift(header.rest);
      socket.resume();
      hand(socket);
    },
    clientOf: (peer) => proxiedClients.get(peer),
  };
}

/** The TCP socket under each replaying stream. */
const tcpOfReplay = new WeakMap<object, Socket>();

/**
 * Gives a TLS socket over a replaying stream the TCP connection's peer (TLS over a stream knows
 * none). Node keeps the stream a TLS socket wraps only internally (in its handle's JSStreamSocket);
 * listener-client-address.test.ts fails if that changes.
 */
export function takePeerOfReplay(socket: Socket): void {
  const wrapped = (socket as Socket & { _handle?: { _parentWrap?: { stream?: object } } })._handle?._parentWrap?.stream;
  const tcp = wrapped && tcpOfReplay.get(wrapped);
  if (!tcp) return;
  Object.defineProperty(socket, 'remoteAddress', { value: tcp.remoteAddress });
  Object.defineProperty(socket, 'remotePort', { value: tcp.remotePort });
  Object.defineProperty(socket, 'remoteFamily', { value: tcp.remoteFamily });
}

/**
 * A stream that yields `consumed` (the bytes read after a PROXY header) and then the rest of
 * `socket`. TLS reads a `net.Socket`'s handle directly, past anything unshifted onto it, so the
 * handshake after a PROXY header goes through this stream instead.
 */
function replayingStream(socket: Socket, consumed: Buffer): Duplex {
  const stream = new DuplexStream({
    read: () => {
      socket.resume();
    },
    write: (chunk, encoding, callback) => {
      socket.write(chunk, encoding, callback);
    },
    final: (callback) => {
      socket.end();
      callback();
    },
    destroy: (err, callback) => {
      socket.destroy(err ?? undefined);
      callback(err);
    },
  });
  tcpOfReplay.set(stream, socket);
  if (consumed.length > 0) stream.push(consumed);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('close', () => stream.destroy());
  return stream;
}
