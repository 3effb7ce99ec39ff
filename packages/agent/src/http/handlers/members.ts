import { localMembers, type MembersResponse } from '../../members.js';
import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

/** GET /v1/agent/members: the server gossip pool; a client asks one of its servers. */
export async function members(
  agent: Pick<AgentServices, 'callServer' | 'config' | 'isServer' | 'gossip'>,
  req: AgentRequest,
): Promise<Reply> {
  if (agent.isServer) return json(localMembers(agent));
  return json(await agent.callServer<MembersResponse>('Status.Members', {}, req.token));
}
