import type { Clock } from '@ward/base';
import { type Address, addressKey, type Transport } from './transport.js';

/**
 * An in-memory network joining `MemoryTransport`s: packets and requests are delivered
 * on the microtask queue, and a node can be cut off to simulate a crash or partition.
 */
export class MemoryNetwork {
  readonly #nodes = new Map<string, MemoryTransport>();
  readonly #down = new Set<string>();
  #nextPort = 10_000;

  constructor(readonly clock: Clock) {}

  /** A transport with a fresh address on this network. */
  createTransport(addr = '10.0.0.1'): MemoryTransport {
    const t = new MemoryTransport(this, { addr, port: this.#nextPort++ });
    this.#nodes.set(addressKey(t.local), t);
    return t;
  }

  /** Drops all traffic to and from `a` until `heal` (the node keeps running). */
  isolate(a: Address): void {
    this.#down.add(addressKey(a));
  }

  heal(a: Address): void {
    this.#down.delete(addressKey(a));
  }

  /** The live transport at `to`, or undefined if it is gone or cut off from `from`. */
  route(from: Address, to: Address): MemoryTransport | undefined {
    if (this.#down.has(addressKey(from)) || this.#down.has(addressKey(to))) return undefined;
    return this.#nodes.get(addressKey(to));
  }

  remove(a: Address): void {
    this.#nodes.delete(addressKey(a));
  }
}

export class MemoryTransport implements Transport {
  #packetHandler: (data: Uint8Array, from: Address) => void = () => {};
  #requestHandler: (data: Uint8Array) => Promise<Uint8Array> = () => Promise.reject(new Error('no handler'));

  constructor(
    readonly network: MemoryNetwork,
    readonly local: Address,
  ) {}

  sendPacket(to: Address, data: Uint8Array): void {
    const peer = this.network.route(this.local, to);
    if (!peer) return;
    const copy = data.slice();
    queueMicrotask(() => peer.#packetHandler(copy, this.local));
  }

  onPacket(handler: (data: Uint8Array, from: Address) => void): void {
    this.#packetHandler = handler;
  }

  request(to: Address, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const cancel = this.network.clock.setTimeout(() => reject(new Error('i/o timeout')), timeoutMs);
      const peer = this.network.route(this.local, to);
      if (!peer) {
        cancel();
        reject(new Error(`connection refused: ${addressKey(to)}`));
        return;
      }
      peer.#requestHandler(data.slice()).then(
        (reply) => {
          cancel();
          // The reply must cross the network too: a node isolated meanwhile loses it.
          if (this.network.route(to, this.local)) resolve(reply);
          else reject(new Error('connection reset'));
        },
        (err: unknown) => {
          cancel();
          reject(err);
        },
      );
    });
  }

  onRequest(handler: (data: Uint8Array) => Promise<Uint8Array>): void {
    this.#requestHandler = handler;
  }

  async close(): Promise<void> {
    this.network.remove(this.local);
  }
}
