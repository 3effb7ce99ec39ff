export interface ClientNode {
  id: string;
  name: string;
  rpcAddr: string;
}

/**
 * Client nodes that heartbeat this server, so requests can be forwarded to them by
 * `node_id`. In memory only: a restarted server relearns them within one heartbeat.
 */
export class NodeRegistry {
  readonly #nodes = new Map<string, ClientNode>();

  heartbeat(id: string, name: string, rpcAddr: string): void {
    this.#nodes.set(id, { id, name, rpcAddr });
  }

  get(id: string): ClientNode | undefined {
    return this.#nodes.get(id);
  }
}
