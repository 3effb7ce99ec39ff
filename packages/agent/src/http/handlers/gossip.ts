import type { JoinResponse } from '../../api-types.js';
import { InvalidRequestError } from '../../errors.js';
import type { AgentServices } from '../../services.js';
import { empty, json, type Reply } from '../reply.js';
import { type AgentRequest, queryBool } from '../request.js';

/** PUT|POST /v1/agent/join?address=…: push-pull with each; `error` is empty once one succeeded. */
export async function join(agent: Pick<AgentServices, 'join' | 'log'>, req: AgentRequest): Promise<Reply> {
  const addresses = req.query.getAll('address').filter(Boolean);
  if (addresses.length === 0) throw new InvalidRequestError('missing address to join');
  const { numJoined, errors } = await agent.join(addresses);
  if (numJoined === 0) agent.log.warn('agent: join failed', { error: errors.join('; ') });
  const error =
    numJoined > 0
      ? ''
      : `${errors.length} error${errors.length === 1 ? '' : 's'} occurred:\n\t* ${errors.join('\n\t* ')}\n\n`;
  return json({ num_joined: numJoined, error } satisfies JoinResponse);
}

/**
 * PUT|POST /v1/agent/force-leave?node=…[&prune=true]: a failed member becomes left;
 * `prune` also erases it, and is refused (400) for a member that is alive.
 */
export async function forceLeave(agent: Pick<AgentServices, 'gossip'>, req: AgentRequest): Promise<Reply> {
  const node = req.query.get('node');
  if (!node) throw new InvalidRequestError('missing node to force leave');
  let prune: boolean;
  try {
    prune = queryBool(req.query, 'prune', false, 'invalid prune value');
  } catch {
    throw new InvalidRequestError('invalid prune value');
  }
  const member = agent.gossip?.members().find((m) => m.name === node);
  // Pruning an alive member erased it everywhere while it kept running (and, if it was a
  // server, took a voter away behind Raft's back); the established agent refuses too.
  if (prune && member && (member.state === 'alive' || member.state === 'suspect')) {
    throw new InvalidRequestError(`cannot prune alive member ${node}: only a failed or left member can be pruned`);
  }
  agent.gossip?.forceLeave(node, prune);
  return empty;
}
