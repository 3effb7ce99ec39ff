import { createSocket } from 'node:dgram';
import { connect, isIPv6, type Socket } from 'node:net';
import { DurationError, durationMs, parseDuration } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { AuditSink } from './audit-sink.js';

export interface SocketSinkSettings {
  socketType: 'tcp' | 'udp' | 'unix';
  /** `host:port` (tcp, udp) or a socket file (unix). */
  address: string;
  writeTimeoutMs: number;
}

/** Options of a `socket` device: `address`, `socket_type` (tcp), `write_timeout` (2s). */
export function socketSinkSettings(options: Record<string, string>): SocketSinkSettings {
  const address = options.address ?? '';
  if (address === '') throw new InvalidRequestError('address is required');
  const socketType = options.socket_type || 'tcp';
  if (socketType !== 'tcp' && socketType !== 'udp' && socketType !== 'unix') {
    throw new InvalidRequestError(`unsupported socket_type "${socketType}": use tcp, udp or unix`);
  }
  if (socketType !== 'unix') hostPort(address);
  return { socketType, address, writeTimeoutMs: writeTimeoutMs(options.write_timeout ?? '2s') };
}

/** Sub-second durations (`500ms`) matter here, which the seconds-based field parser would round away. */
function writeTimeoutMs(text: string): number {
  let value: number;
  try {
    value = durationMs(parseDuration(text.trim(), 'api'));
  } catch (err) {
    if (err instanceof DurationError) throw new InvalidRequestError(`write_timeout: ${err.message}`);
    throw err;
  }
  if (value <= 0) throw new InvalidRequestError('write_timeout must be positive');
  return value;
}

function hostPort(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) throw new InvalidRequestError(`invalid address "${address}": want host:port`);
  return { host: match[1] ?? match[2] ?? '', port };
}

/**
 * A sink writing lines to a socket. The TCP (or unix) connection is made on first use and
 * again after it breaks; a write that fails on an old connection is retried once on a new
 * one, so a collector that restarted loses nothing, and one that is gone fails the entry.
 */
export function createSocketSink(settings: SocketSinkSettings): AuditSink {
  return settings.socketType === 'udp' ? udpSink(settings) : streamSink(settings);
}

function streamSink(s: SocketSinkSettings): AuditSink {
  let current: Promise<Socket> | undefined;
  const connection = (): Promise<Socket> => {
    current ??= open(s).catch((err: unknown) => {
      current = undefined;
      throw err;
    });
    return current;
  };
  const drop = (socket: Socket) => {
    socket.destroy();
    current = undefined;
  };
  const writeOnce = async (line: string) => {
    const socket = await connection();
    // A socket the peer closed is of no use; the retry connects again.
    if (socket.destroyed || socket.writableEnded) {
      drop(socket);
      throw new Error('audit socket closed by its peer');
    }
    try {
      await withTimeout(
        new Promise<void>((resolve, reject) => socket.write(line, (e) => (e ? reject(e) : resolve()))),
        s.writeTimeoutMs,
      );
    } catch (err) {
      drop(socket);
      throw err;
    }
  };
  return {
    write: async (line) => {
      try {
        await writeOnce(line);
      } catch {
        await writeOnce(line);
      }
    },
    close: async () => {
      const pending = current;
      current = undefined;
      (await pending?.catch(() => undefined))?.destroy();
    },
  };
}

function open(s: SocketSinkSettings): Promise<Socket> {
  const socket = s.socketType === 'unix' ? connect({ path: s.address }) : connect(hostPort(s.address));
  // Errors after connecting surface through the write callback; without a listener they would crash the process.
  socket.on('error', () => {});
  // The peer hung up: end our side too, so the next write sees an ended socket and reconnects.
  socket.on('end', () => socket.destroy());
  return withTimeout(
    new Promise<Socket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    }),
    s.writeTimeoutMs,
  ).catch((err: unknown) => {
    socket.destroy();
    throw err;
  });
}

function udpSink(s: SocketSinkSettings): AuditSink {
  const { host, port } = hostPort(s.address);
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  socket.on('error', () => {});
  return {
    write: (line) =>
      withTimeout(
        new Promise<void>((resolve, reject) => socket.send(line, port, host, (e) => (e ? reject(e) : resolve()))),
        s.writeTimeoutMs,
      ),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`audit socket write timed out after ${ms}ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
