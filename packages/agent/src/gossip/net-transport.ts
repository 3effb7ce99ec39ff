import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Address, Transport } from './transport.js';

/** Largest TCP frame accepted: full state of a few thousand members fits comfortably. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Real gossip transport: UDP datagrams for probes and gossip, TCP on the same port
 * number for push-pull. A TCP exchange is one length-prefixed request and one
 * length-prefixed reply on a fresh connection.
 */
export class NetTransport implements Transport {
  #packetHandler: (data: Uint8Array, from: Address) => void = () => {};
  #requestHandler: (data: Uint8Array) => Promise<Uint8Array> = () => Promise.reject(new Error('no handler'));
  readonly #sockets = new Set<Socket>();

  private constructor(
    readonly local: Address,
    private readonly udp: UdpSocket,
    private readonly tcp: Server,
  ) {}

  /** Binds UDP and TCP on `bind`:`port` (port 0 picks one free for both). */
  static async listen(bind: string, port: number, advertise?: string): Promise<NetTransport> {
    const tcp = createServer();
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, bind, () => resolve());
    });
    const actual = (tcp.address() as { port: number }).port;
    const udp = createSocket(bind.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(actual, bind, () => resolve());
    });
    const t = new NetTransport({ addr: advertise ?? bind, port: actual }, udp, tcp);
    t.#wire();
    return t;
  }

  #wire(): void {
    this.udp.on('message', (msg, rinfo) => this.#packetHandler(msg, { addr: rinfo.address, port: rinfo.port }));
    // A send to a closed port can surface as an error event; it is not fatal for gossip.
    this.udp.on('error', () => {});
    this.tcp.on('connection', (socket) => {
      this.#track(socket);
      readFrame(socket)
        .then((req) => this.#requestHandler(req))
        .then((reply) => socket.end(frame(reply)))
        .catch(() => socket.destroy());
    });
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => {});
  }

  sendPacket(to: Address, data: Uint8Array): void {
    try {
      this.udp.send(data, to.port, to.addr);
    } catch {
      // Closed socket during shutdown: the packet is simply lost.
    }
  }

  onPacket(handler: (data: Uint8Array, from: Address) => void): void {
    this.#packetHandler = handler;
  }

  request(to: Address, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    const socket = connect({ host: to.addr, port: to.port });
    this.#track(socket);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('i/o timeout')));
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.write(frame(data));
        readFrame(socket).then(resolve, reject);
      });
    }).finally(() => socket.destroy()) as Promise<Uint8Array>;
  }

  onRequest(handler: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.#requestHandler = handler;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    await new Promise<void>((resolve) => this.udp.close(() => resolve()));
  }
}

function frame(data: Uint8Array): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(data.length);
  return Buffer.concat([header, data]);
}

/** Reads one length-prefixed frame; rejects on close before it is complete. */
function readFrame(socket: Socket): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 4) return;
      const len = buf.readUInt32BE(0);
      if (len > MAX_FRAME_BYTES) return fail(new Error('frame too large'));
      if (buf.length < 4 + len) return;
      cleanup();
      resolve(buf.subarray(4, 4 + len));
    };
    const onEnd = () => fail(new Error('connection closed before reply'));
    const fail = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
  });
}
