import type { AgentServices } from './services.js';

/** What `/v1/status/leader` and `/v1/status/peers` show: RPC addresses of the Raft leader and voters. */
export interface RaftStatus {
  /** `ip:port`, or "" while there is no leader. */
  leader: string;
  peers: string[];
}

/** The Raft view of a server; a client asks one of its servers. */
export async function raftStatus(agent: Pick<AgentServices, 'callServer' | 'consensus'>): Promise<RaftStatus> {
  if (!agent.consensus) return agent.callServer<RaftStatus>('Status.Raft', {}, undefined);
  const peers = agent.consensus
    .voters()
    .map((p) => p.address)
    .sort();
  return { leader: agent.consensus.leader?.address ?? '', peers };
}
