import type { Server } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';

/** A bound listener: the port it took (0 asked for a free one) and how to stop it. */
export interface Listener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Byte-stream connections, under RPC and HTTP: TCP (`TCP_STREAMS` in `net-network.ts`) or
 * in memory (`MemoryStreams`). The protocols on top (RPC framing, TLS, HTTP) are the same
 * code either way.
 */
export interface StreamNetwork {
  /**
   * Hands each connection to `bind:port` (0: a free port) to `server` as its `connection`
   * event; `server` is a node:net, node:tls or node:http server that does not listen
   * itself. Closing the listener stops accepting and ends the open connections.
   */
  listen(server: Server, bind: string, port: number): Promise<Listener>;
  /** A connection to `host:port`, wrapped in TLS with `tls`; a refusal is its `error` event. */
  connect(host: string, port: number, tls?: ConnectionOptions): Duplex;
}
