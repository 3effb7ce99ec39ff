import { collectHostData, type HostData } from '../../debug/host-data.js';
import { InvalidRequestError } from '../../errors.js';
import { type ForwardView, resolveTarget } from '../../forward.js';
import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

type HostView = ForwardView & Pick<AgentServices, 'authorize' | 'deps' | 'isServer' | 'memberName'>;

/** GET /v1/agent/host[?server_id=…|node_id=…]: `{AgentID, HostData}` of this or another agent. */
export async function host(agent: HostView, req: AgentRequest): Promise<Reply> {
  const serverId = req.query.get('server_id') || undefined;
  const nodeId = req.query.get('node_id') || undefined;
  if (serverId && nodeId) throw new InvalidRequestError('Can only forward to either client node or server');
  const target = await resolveTarget(
    agent,
    { serverId, nodeId, token: req.token },
    { server: (id) => new InvalidRequestError(`unknown nomad server ${id}`) },
  );
  if (target.kind === 'remote') {
    const data = await agent.rpc.call<HostData>(
      target.address,
      'Agent.Host',
      {},
      { token: req.token, peer: target.peer },
    );
    return json({ AgentID: target.agentId, HostData: data });
  }
  // The debug gate is the target's: checked here only when this agent is the target.
  await agent.authorize(req.token, 'debug');
  const agentId = agent.isServer ? agent.memberName : agent.nodeId;
  return json({ AgentID: agentId, HostData: await collectHostData(agent.deps.env) });
}
