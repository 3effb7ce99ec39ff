import { UnhealthyError } from '../../errors.js';
import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

type HealthView = Pick<AgentServices, 'isClient' | 'isServer' | 'leader' | 'servers'>;

interface Check {
  ok: boolean;
  message: string;
}

/**
 * GET /v1/agent/health[?type=client&type=server]: a client is healthy when it knows a
 * server, a server when the pool has a leader. Unhealthy → 500 with the same JSON as text.
 */
export async function health(agent: HealthView, req: AgentRequest): Promise<Reply> {
  const types = req.query.getAll('type');
  const wants = (t: 'client' | 'server', runs: boolean) => (types.length > 0 ? types.includes(t) : runs);
  const out: { client?: Check; server?: Check } = {};
  if (wants('client', agent.isClient)) out.client = clientCheck(agent);
  if (wants('server', agent.isServer)) out.server = serverCheck(agent);
  if (out.client?.ok === false || out.server?.ok === false) throw new UnhealthyError(JSON.stringify(out));
  return json(out);
}

function clientCheck(agent: HealthView): Check {
  if (!agent.servers) return { ok: false, message: 'client not enabled' };
  return agent.servers.list().length > 0 ? { ok: true, message: 'ok' } : { ok: false, message: 'no known servers' };
}

function serverCheck(agent: HealthView): Check {
  if (!agent.isServer) return { ok: false, message: 'server not enabled' };
  return agent.leader() ? { ok: true, message: 'ok' } : { ok: false, message: 'no leader' };
}
