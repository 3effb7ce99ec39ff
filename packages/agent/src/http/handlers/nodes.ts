import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';

/** One client node of `GET /v1/nodes`, with the established stub's field names. */
export interface NodeStub {
  ID: string;
  Name: string;
  Address: string;
  Datacenter: string;
  NodeClass: string;
  NodePool: string;
  Drain: boolean;
  SchedulingEligibility: 'eligible';
  Status: 'ready' | 'down';
}

/** Heartbeats a server may miss before it shows the client as down (the established TTL grace). */
const MISSED_HEARTBEATS = 3;

/**
 * GET /v1/nodes: the client nodes that heartbeat this server. Ward schedules nothing, so a
 * node is never drained and always eligible; it is `down` once it missed three heartbeats.
 */
export async function nodes(agent: Pick<AgentServices, 'nodes' | 'deps' | 'config'>): Promise<Reply> {
  const now = agent.deps.clock.now();
  const ttl = agent.config.heartbeatIntervalMs * MISSED_HEARTBEATS;
  const stubs: NodeStub[] = agent.nodes.list().map((n) => ({
    ID: n.id,
    Name: n.name,
    Address: n.rpcAddr.replace(/:\d+$/, ''),
    Datacenter: n.datacenter,
    NodeClass: '',
    NodePool: 'default',
    Drain: false,
    SchedulingEligibility: 'eligible',
    Status: now - n.lastHeartbeatMs > ttl ? 'down' : 'ready',
  }));
  return json(stubs);
}
