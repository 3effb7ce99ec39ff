import type { Duplex } from 'node:stream';
import type { Clock } from '@ward/base';
import { errorFromCode, UpstreamError } from '../errors.js';
import type { StreamNetwork } from '../streams.js';
import { LineReader, type RpcReply } from './protocol.js';
import { certNames, type RpcTls } from './rpc-tls.js';

/** `host:port` of another agent's rpc listener. */
export function splitHostPort(address: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!m) return { host: address, port: defaultPort };
  return { host: m[1] as string, port: m[2] ? Number(m[2]) : defaultPort };
}

export interface CallOptions {
  token?: string;
  timeoutMs?: number;
  /**
   * Who is expected at the address: a server (default; with `verify_server_hostname` its
   * certificate must name `server.<region>.nomad`) or any agent, a client included.
   */
  peer?: 'server' | 'agent';
}

/** How an agent calls other agents' RPC methods (`RpcDialer` over sockets; in memory in tests). */
export interface RpcClient {
  readonly isTls: boolean;
  call<T>(address: string, method: string, args: Record<string, unknown>, o?: CallOptions): Promise<T>;
  stream(
    address: string,
    method: string,
    args: Record<string, unknown>,
    o: CallOptions & { signal: AbortSignal; onChunk: (chunk: Buffer) => void },
  ): Promise<void>;
}

/**
 * Dials other agents' RPC ports over `streams` (TCP, or in memory in tests): plain, or
 * mutual TLS with the agent's certificate (`tls { rpc = true }`). Built once at the
 * composition root; every RPC goes through it, so none can bypass TLS. A call's timeout
 * runs on `clock`.
 */
export class RpcDialer implements RpcClient {
  constructor(
    private readonly streams: StreamNetwork,
    private readonly tls: RpcTls | undefined,
    private readonly clock: Clock,
  ) {}

  get isTls(): boolean {
    return this.tls !== undefined;
  }

  /** Calls a unary method on the agent at `address`; remote typed errors come back typed. */
  call<T>(address: string, method: string, args: Record<string, unknown>, o: CallOptions = {}): Promise<T> {
    return new Promise((resolve, reject) => {
      const socket = this.#open(address, method, args, o);
      const cancel = this.clock.setTimeout(() => socket.destroy(new Error('i/o timeout')), o.timeoutMs ?? 10_000);
      socket.once('close', cancel);
      const reader = new LineReader((value) => {
        const reply = value as RpcReply;
        socket.destroy();
        if ('ok' in reply && reply.ok) resolve(reply.result as T);
        else if ('ok' in reply) reject(errorFromCode(reply.error.code, reply.error.message));
      });
      wire(socket, reader, address, reject);
      socket.once('close', () => reject(new UpstreamError(`rpc error: connection to ${address} closed`)));
    });
  }

  /**
   * Calls a stream method: `onChunk` gets each chunk; resolves when the remote ends the
   * stream, rejects on a remote error. Aborting `signal` hangs up (and resolves).
   */
  stream(
    address: string,
    method: string,
    args: Record<string, unknown>,
    o: CallOptions & { signal: AbortSignal; onChunk: (chunk: Buffer) => void },
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = this.#open(address, method, args, o);
      const hangUp = () => {
        socket.destroy();
        resolve();
      };
      if (o.signal.aborted) return hangUp();
      o.signal.addEventListener('abort', hangUp, { once: true });
      const reader = new LineReader((value) => {
        const reply = value as RpcReply;
        if ('chunk' in reply) return o.onChunk(Buffer.from(reply.chunk, 'base64'));
        socket.destroy();
        if ('end' in reply) resolve();
        else if ('ok' in reply && !reply.ok) reject(errorFromCode(reply.error.code, reply.error.message));
      });
      wire(socket, reader, address, reject);
      socket.once('close', () => {
        o.signal.removeEventListener('abort', hangUp);
        resolve();
      });
    });
  }

  #open(address: string, method: string, args: Record<string, unknown>, o: CallOptions): Duplex {
    const { host, port } = splitHostPort(address, 4647);
    const tls = this.tls;
    const socket = this.streams.connect(
      host,
      port,
      tls && {
        ca: tls.ca,
        cert: tls.cert,
        key: tls.key,
        // The established scheme names roles, not hosts: check the role's name when asked
        // to (verify_server_hostname), else only that the CA signed the certificate.
        checkServerIdentity: (_host, cert) => {
          const want = tls.serverName;
          if (!want) return undefined;
          if (certNames(cert, want) || (o.peer === 'agent' && certNames(cert, tls.clientName))) return undefined;
          return new Error(`rpc: the certificate of ${address} does not name ${want}`);
        },
      },
    );
    socket.write(`${JSON.stringify({ method, token: o.token, args })}\n`);
    return socket;
  }
}

function wire(socket: Duplex, reader: LineReader, address: string, reject: (e: Error) => void): void {
  socket.on('data', (chunk) => {
    try {
      reader.push(chunk);
    } catch (err) {
      socket.destroy();
      reject(new UpstreamError(`rpc error: ${(err as Error).message}`));
    }
  });
  socket.on('error', (err) => reject(new UpstreamError(`rpc error: ${address}: ${err.message}`)));
}
