import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { Logger } from '@ward/base';
import { AgentError } from '../errors.js';
import type { Listener, StreamNetwork } from '../streams.js';
import { LineReader, type RpcReply, type RpcRequest } from './protocol.js';
import { certNames, type RpcTls } from './rpc-tls.js';

export interface RpcCall {
  token: string | undefined;
  args: Record<string, unknown>;
  /** Aborted when the caller hangs up (streams stop then). */
  signal: AbortSignal;
  /**
   * The caller proved a server certificate (`server.<region>.nomad` with
   * `verify_server_hostname`); true without that check (plain TCP, or TLS that only checks the CA).
   */
  isServerPeer: boolean;
}

/** A unary method returns its result; a stream method writes chunks until done or aborted. */
export type RpcMethod =
  | { kind: 'unary'; handle(call: RpcCall): Promise<unknown> }
  | { kind: 'stream'; handle(call: RpcCall, write: (chunk: Uint8Array) => void): Promise<void> };

/** Serves the agent's RPC methods on the rpc port (none until `serve`). */
export class RpcServer {
  #methods = new Map<string, RpcMethod>();
  #listener: Listener | undefined;

  private constructor(
    server: Server,
    private readonly log: Logger,
    tls: RpcTls | undefined,
  ) {
    if (tls) {
      server.on('secureConnection', (s: TLSSocket) => this.#serve(s, isServerCert(s, tls)));
      // A peer without a certificate of our CA (a rogue agent, a stale one): say so once per attempt.
      server.on('tlsClientError', (err, s) => {
        this.log.warn('rpc: refused a connection: TLS handshake failed', {
          from: `${s.remoteAddress}:${s.remotePort}`,
          error: err.message,
        });
      });
    } else server.on('connection', (s) => this.#serve(s, true));
  }

  /** Listens on `bind:port` of `streams`; with `tls`, mutual TLS (a client certificate of the CA is required). */
  static async listen(
    streams: StreamNetwork,
    bind: string,
    port: number,
    log: Logger,
    tls?: RpcTls,
  ): Promise<RpcServer> {
    const server = tls
      ? createTlsServer({ ca: tls.ca, cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: true })
      : createServer();
    const rpc = new RpcServer(server, log, tls);
    rpc.#listener = await streams.listen(server, bind, port);
    return rpc;
  }

  /** From now on, answers `methods`. */
  serve(methods: Map<string, RpcMethod>): void {
    this.#methods = methods;
  }

  get port(): number {
    return this.#listener?.port ?? 0;
  }

  #serve(socket: Duplex, isServerPeer: boolean): void {
    const abort = new AbortController();
    socket.on('close', () => abort.abort());
    socket.on('error', () => {});
    let started = false;
    const reader = new LineReader((value) => {
      if (started) return;
      started = true;
      void this.#dispatch(value as RpcRequest, socket, abort.signal, isServerPeer);
    });
    socket.on('data', (chunk) => {
      try {
        reader.push(chunk);
      } catch {
        socket.destroy();
      }
    });
  }

  async #dispatch(req: RpcRequest, socket: Duplex, signal: AbortSignal, isServerPeer: boolean): Promise<void> {
    const send = (reply: RpcReply) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
    };
    const method = this.#methods.get(req?.method);
    try {
      if (!method) throw new Error(`rpc: unknown method ${String(req?.method)}`);
      const call = { token: req.token, args: req.args ?? {}, signal, isServerPeer };
      if (method.kind === 'unary') {
        send({ ok: true, result: await method.handle(call) });
      } else {
        await method.handle(call, (chunk) => send({ chunk: Buffer.from(chunk).toString('base64') }));
        send({ end: true });
      }
    } catch (err) {
      if (!(err instanceof AgentError)) this.log.warn('rpc: request failed', { method: req?.method, error: err });
      const code = err instanceof AgentError ? err.code : 'upstream_failed';
      send({ ok: false, error: { code, message: err instanceof Error ? err.message : String(err) } });
    }
    socket.end();
  }

  async close(): Promise<void> {
    await this.#listener?.close();
  }
}

function isServerCert(socket: TLSSocket, tls: RpcTls): boolean {
  return tls.serverName === undefined || certNames(socket.getPeerCertificate(), tls.serverName);
}
