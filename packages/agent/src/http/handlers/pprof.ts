import type { ProfileResult } from '../../debug/pprof.js';
import { InternalError, InvalidRequestError, NotFoundError } from '../../errors.js';
import { type ForwardView, resolveTarget } from '../../forward.js';
import type { AgentServices } from '../../services.js';
import type { Reply } from '../reply.js';
import { type AgentRequest, queryInt } from '../request.js';

type PprofView = ForwardView & Pick<AgentServices, 'authorize' | 'profiler'>;

/** Default profile length; the spec's default (the established code uses 1). */
const DEFAULT_SECONDS = 3;
/** Longest profile or trace: longer ones tie up the profiler (one at a time) for nothing. */
const MAX_SECONDS = 300;

/** GET /v1/agent/pprof/<profile>: runtime profiles in pprof format, or text with `debug=1`. */
export async function pprof(agent: PprofView, req: AgentRequest): Promise<Reply> {
  const profile = req.params['*'] ?? '';
  if (!profile) throw new NotFoundError('Invalid method');
  const seconds = queryInt(req.query, 'seconds', DEFAULT_SECONDS);
  if (seconds > MAX_SECONDS) throw new InvalidRequestError(`seconds must be at most ${MAX_SECONDS}`);
  const args = {
    profile,
    seconds: seconds > 0 ? seconds : DEFAULT_SECONDS,
    debug: queryInt(req.query, 'debug', 0),
    gc: queryInt(req.query, 'gc', 0),
  };
  const target = await resolveTarget(
    agent,
    {
      serverId: req.query.get('server_id') || undefined,
      nodeId: req.query.get('node_id') || undefined,
      token: req.token,
    },
    {
      server: (id) => new InternalError(`unknown nomad server ${id}`),
      // The caller named a node nobody knows: its mistake (404), not the agent's failure.
      node: (id) => new NotFoundError(`node not found: ${id}`),
    },
  );
  let result: ProfileResult;
  if (target.kind === 'remote') {
    const r = await agent.rpc.call<Omit<ProfileResult, 'body'> & { body: string }>(
      target.address,
      'Agent.Pprof',
      args,
      {
        token: req.token,
        peer: target.peer,
        timeoutMs: (args.seconds + 30) * 1000,
      },
    );
    result = { ...r, body: Buffer.from(r.body, 'base64') };
  } else {
    // Availability (enable_debug × ACLs) is decided by the agent that runs the profile.
    await agent.authorize(req.token, 'pprof');
    result = await agent.profiler.run({ ...args, signal: req.signal });
  }
  if (result.contentType.startsWith('text/')) return { kind: 'text', body: result.body };
  return { kind: 'binary', body: result.body, contentType: result.contentType, filename: result.filename };
}
