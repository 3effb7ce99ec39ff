import { connect, type Socket } from 'node:net';
import { errorFromCode, UpstreamError } from '../errors.js';
import { LineReader, type RpcReply } from './protocol.js';

/** `host:port` of another agent's rpc listener. */
export function splitHostPort(address: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!m) return { host: address, port: defaultPort };
  return { host: m[1] as string, port: m[2] ? Number(m[2]) : defaultPort };
}

export interface CallOptions {
  token?: string;
  timeoutMs?: number;
}

/** Calls a unary method on the agent at `address`; remote typed errors come back typed. */
export function rpcCall<T>(
  address: string,
  method: string,
  args: Record<string, unknown>,
  o: CallOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const socket = open(address, method, args, o.token);
    socket.setTimeout(o.timeoutMs ?? 10_000, () => socket.destroy(new Error('i/o timeout')));
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
export function rpcStream(
  address: string,
  method: string,
  args: Record<string, unknown>,
  o: CallOptions & { signal: AbortSignal; onChunk: (chunk: Buffer) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = open(address, method, args, o.token);
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

function open(address: string, method: string, args: Record<string, unknown>, token?: string): Socket {
  const { host, port } = splitHostPort(address, 4647);
  const socket = connect({ host, port });
  socket.write(`${JSON.stringify({ method, token, args })}\n`);
  return socket;
}

function wire(socket: Socket, reader: LineReader, address: string, reject: (e: Error) => void): void {
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
