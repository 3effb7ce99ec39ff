import { LOG_LEVELS, type LogLevel } from '@ward/base';
import { InvalidRequestError, NotFoundError } from '../../errors.js';
import { type ForwardView, resolveTarget, type Target } from '../../forward.js';
import { LogFramer } from '../../monitor/framer.js';
import { followLogs } from '../../monitor/local-monitor.js';
import type { AgentServices } from '../../services.js';
import type { Reply } from '../reply.js';
import { type AgentRequest, queryBool } from '../request.js';

type MonitorView = ForwardView & Pick<AgentServices, 'deps'>;

/**
 * GET /v1/agent/monitor: streams this agent's (or a forwarded agent's) log lines at
 * `log_level` as JSON frames, or raw text with `plain=true`, until the client hangs up.
 */
export async function monitor(agent: MonitorView, req: AgentRequest): Promise<Reply> {
  const q = req.query;
  const rawLevel = q.get('log_level') ?? 'info';
  const level = rawLevel.toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new InvalidRequestError(`Unknown log level: ${rawLevel}`);
  const json = queryBool(q, 'log_json', false, 'Unknown option for log json');
  const isPlain = queryBool(q, 'plain', false, 'Unknown option for plain');
  const target = await resolveTarget(
    agent,
    { serverId: q.get('server_id') || undefined, nodeId: q.get('node_id') || undefined, token: req.token },
    {
      server: (id) => new InvalidRequestError(`unknown nomad server ${id}`),
      node: () => new NotFoundError('Unknown node'),
    },
  );
  return {
    kind: 'stream',
    contentType: isPlain ? 'text/plain' : 'application/json',
    run: async (write, signal) => {
      const framer = new LogFramer({ clock: agent.deps.clock, write, isPlain });
      framer.start();
      try {
        await follow(agent, target, { level, json, signal, token: req.token }, (line) => framer.push(line));
      } finally {
        framer.close();
      }
    },
  };
}

function follow(
  agent: MonitorView,
  target: Target,
  o: { level: LogLevel; json: boolean; signal: AbortSignal; token: string | undefined },
  onLine: (line: string) => void,
): Promise<void> {
  if (target.kind === 'local') return followLogs(agent.deps.hub, o, onLine);
  return agent.rpc.stream(
    target.address,
    'Agent.Monitor',
    { logLevel: o.level, logJson: o.json },
    {
      token: o.token,
      peer: target.peer,
      signal: o.signal,
      onChunk: (chunk) => onLine(chunk.toString('utf8')),
    },
  );
}
