export interface ClientNode {
  id: string;
  name: string;
  rpcAddr: string;
  /** The client's datacenter ("" from a client that does not say). */
  datacenter: string;
  /** When the server last heard from it (the injected clock's milliseconds). */
  lastHeartbeatMs: number;
}

/**
 * Client nodes that heartbeat this server, so requests can be forwarded to them by
 * `node_id` and `GET /v1/nodes` can list them. In memory only: a restarted server relearns
 * them within one heartbeat.
 */
export class NodeRegistry {
  readonly #nodes = new Map<string, ClientNode>();

  heartbeat(node: ClientNode): void {
    this.#nodes.set(node.id, node);
  }

  get(id: string): ClientNode | undefined {
    return this.#nodes.get(id);
  }

  /** Every node heard from, by name. */
  list(): ClientNode[] {
    return [...this.#nodes.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }
}
