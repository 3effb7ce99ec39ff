import type { Agent } from '../../agent.js';
import { InternalError } from '../../errors.js';
import { localMembers, type MembersResponse } from '../../members.js';
import { rpcCall } from '../../rpc/rpc-client.js';
import { json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

/** GET /v1/agent/members: the server gossip pool; a client asks one of its servers. */
export async function members(agent: Agent, req: AgentRequest): Promise<Reply> {
  if (agent.isServer) return json(localMembers(agent));
  const server = agent.serverList?.list()[0];
  if (!server) throw new InternalError('no known servers');
  return json(await rpcCall<MembersResponse>(server, 'Status.Members', {}, { token: req.token }));
}
