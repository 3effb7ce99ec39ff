import type { Server } from 'node:net';
import { Duplex } from 'node:stream';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';
import type { Listener, StreamNetwork } from './streams.js';

/**
 * One end of an in-memory connection. It offers the few `net.Socket` members that
 * node:http and node:tls call on a connection (timeouts and keep-alive are no-ops: a
 * memory connection never stalls), and ends like TCP: ending one side ends the other
 * once its data is read; destroying one side destroys the other.
 */
export class MemorySocket extends Duplex {
  #peer: MemorySocket | undefined;

  constructor(
    readonly remoteAddress: string,
    readonly remotePort: number,
  ) {
    super({ allowHalfOpen: false });
  }

  /** Two connected ends: what one writes, the other reads. */
  static pair(a: { host: string; port: number }, b: { host: string; port: number }): [MemorySocket, MemorySocket] {
    const x = new MemorySocket(b.host, b.port);
    const y = new MemorySocket(a.host, a.port);
    x.#peer = y;
    y.#peer = x;
    return [x, y];
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.#peer?.push(Buffer.from(chunk));
    done();
  }

  override _final(done: (err?: Error | null) => void): void {
    this.#peer?.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    const peer = this.#peer;
    if (peer && !peer.destroyed) process.nextTick(() => peer.destroy());
    done(err);
  }

  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}

/**
 * Byte streams in memory for RPC and HTTP: `listen` registers a server at `bind:port`,
 * `connect` hands it one end of a `MemorySocket` pair as its `connection` event. The
 * real protocols run on top (RPC framing, TLS, node:http); no socket is opened and no
 * timer is set, so a test on a fake clock decides when anything times out.
 */
export class MemoryStreams implements StreamNetwork {
  readonly #servers = new Map<string, { server: Server; open: Set<MemorySocket> }>();
  /** The hosts at both ends of each accepted connection, to break it when either is cut off. */
  readonly #ends = new WeakMap<MemorySocket, { from: string; to: string }>();
  readonly #down = new Set<string>();
  #nextPort = 20_000;
  #nextClientPort = 40_000;

  async listen(server: Server, bind: string, port: number): Promise<Listener> {
    const actual = port || this.#nextPort++;
    const key = `${bind}:${actual}`;
    if (this.#servers.has(key)) throw Object.assign(new Error(`listen EADDRINUSE: ${key}`), { code: 'EADDRINUSE' });
    const open = new Set<MemorySocket>();
    this.#servers.set(key, { server, open });
    return {
      port: actual,
      close: async () => {
        this.#servers.delete(key);
        for (const s of open) s.destroy();
      },
    };
  }

  /** A connection from outside every host (a test's HTTP client); see `from`. */
  connect(host: string, port: number, tls?: ConnectionOptions): Duplex {
    return this.#connect('memory', host, port, tls);
  }

  /** These streams as seen from `host`: its connections are cut too when `host` is isolated. */
  from(host: string): StreamNetwork {
    return {
      listen: (server, bind, port) => this.listen(server, bind, port),
      connect: (to, port, tls) => this.#connect(host, to, port, tls),
    };
  }

  #connect(from: string, host: string, port: number, tls: ConnectionOptions | undefined): Duplex {
    const [client, accepted] = MemorySocket.pair({ host: from, port: this.#nextClientPort++ }, { host, port });
    const isCut = this.#down.has(host) || this.#down.has(from);
    const target = isCut ? undefined : this.#servers.get(`${host}:${port}`);
    if (!target) {
      const err = Object.assign(new Error(`connect ECONNREFUSED ${host}:${port}`), { code: 'ECONNREFUSED' });
      process.nextTick(() => client.destroy(err));
    } else {
      target.open.add(accepted);
      this.#ends.set(accepted, { from, to: host });
      accepted.once('close', () => target.open.delete(accepted));
      target.server.emit('connection', accepted);
    }
    return tls ? tlsConnect({ ...tls, socket: client }) : client;
  }

  /**
   * Cuts `host` off both ways until `heal` (a crashed machine, or one side of a partition):
   * connections to it, and from it when dialled through `from(host)`, are refused, and the
   * open ones between it and anyone else break.
   */
  isolate(host: string): void {
    this.#down.add(host);
    for (const { open } of this.#servers.values()) {
      for (const s of open) {
        const ends = this.#ends.get(s);
        if (ends?.from === host || ends?.to === host) s.destroy();
      }
    }
  }

  heal(host: string): void {
    this.#down.delete(host);
  }
}
