import { InvalidRequestError } from '../../errors.js';
import type { AgentServices } from '../../services.js';
import { empty, json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

/** GET /v1/agent/servers: the client's known servers, sorted `ip:port`. */
export async function listServers(agent: Pick<AgentServices, 'servers'>): Promise<Reply> {
  return json(agent.servers?.list() ?? []);
}

/** PUT|POST /v1/agent/servers?address=…: replace the list with the addresses that answer a ping. */
export async function updateServers(agent: Pick<AgentServices, 'servers'>, req: AgentRequest): Promise<Reply> {
  const addresses = req.query.getAll('address').filter(Boolean);
  if (addresses.length === 0) throw new InvalidRequestError('missing server address');
  await agent.servers?.replace(addresses);
  return empty;
}
