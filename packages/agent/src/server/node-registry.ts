import type { Clock } from '@ward/base';

export interface ClientNode {
  id: string;
  name: string;
  rpcAddr: string;
  lastSeenMs: number;
}

/** Client nodes that heartbeat this server, so requests can be forwarded to them by `node_id`. */
export class NodeRegistry {
  readonly #nodes = new Map<string, ClientNode>();

  constructor(private readonly clock: Clock) {}

  heartbeat(id: string, name: string, rpcAddr: string): void {
    this.#nodes.set(id, { id, name, rpcAddr, lastSeenMs: this.clock.now() });
  }

  get(id: string): ClientNode | undefined {
    return this.#nodes.get(id);
  }

  count(): number {
    return this.#nodes.size;
  }
}
