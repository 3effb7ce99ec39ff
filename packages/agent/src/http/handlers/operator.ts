import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';

/** One server of `GET /v1/operator/raft/configuration`, with the established field names. */
export interface RaftServer {
  ID: string;
  Node: string;
  Address: string;
  Leader: boolean;
  Voter: boolean;
  RaftProtocol: string;
}

/**
 * GET /v1/operator/raft/configuration: every Raft peer of this server (name, node ID, RPC
 * address), which one leads and which vote, as `operator raft list-peers` prints them.
 */
export async function raftConfiguration(
  agent: Pick<AgentServices, 'consensus' | 'raftPeers' | 'gossip'>,
): Promise<Reply> {
  const raft = agent.consensus;
  if (!raft) return json({ Servers: [], Index: 0 });
  const ids = new Map((agent.gossip?.members() ?? []).map((m) => [m.name, m.tags.id ?? '']));
  const voters = new Set(raft.voters().map((p) => p.id));
  const leader = raft.leader?.id;
  const servers: RaftServer[] = agent.raftPeers().map((p) => ({
    ID: ids.get(p.id) ?? p.id,
    Node: p.id,
    Address: p.address,
    Leader: p.id === leader,
    Voter: voters.has(p.id),
    RaftProtocol: '3',
  }));
  return json({ Servers: servers, Index: raft.commitIndex });
}
