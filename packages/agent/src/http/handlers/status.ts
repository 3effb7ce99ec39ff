import { raftStatus } from '../../status.js';
import { json, type Reply } from '../reply.js';

/** GET /v1/status/leader: the leader's RPC address as a JSON string ("" without one). */
export async function statusLeader(agent: Parameters<typeof raftStatus>[0]): Promise<Reply> {
  return json((await raftStatus(agent)).leader);
}

/** GET /v1/status/peers: the RPC addresses of the Raft voters, sorted. */
export async function statusPeers(agent: Parameters<typeof raftStatus>[0]): Promise<Reply> {
  return json((await raftStatus(agent)).peers);
}
