import type { KeyringResponse } from '../../api-types.js';
import { InternalError, NotFoundError } from '../../errors.js';
import { livePeers, type PeersView } from '../../forward.js';
import { KEYRING_OPS, type KeyringOp } from '../../server/gossip-keys.js';
import type { AgentServices } from '../../services.js';
import { json, type Reply } from '../reply.js';
import type { AgentRequest } from '../request.js';

type KeyringView = PeersView & Pick<AgentServices, 'gossipKeys' | 'rpc' | 'rpcAddress'>;

/** GET /v1/agent/keyring/list: every server's gossip keys, with how many servers hold each. */
export async function keyringList(agent: KeyringView, req: AgentRequest): Promise<Reply> {
  return json(await everyServer(agent, req.token, 'list', ''));
}

/**
 * PUT|POST /v1/agent/keyring/install|use|remove `{"Key": "<base64>"}`: the change on every
 * live server of the region; 500 `<n>/<m> nodes reported failure` when any could not.
 */
export async function keyringChange(agent: KeyringView, req: AgentRequest): Promise<Reply> {
  const op = req.params.op ?? '';
  if (op === 'list' || !KEYRING_OPS.has(op)) throw new NotFoundError(`Invalid method`);
  const body = await req.body();
  const key = typeof body.Key === 'string' ? body.Key : '';
  return json(await everyServer(agent, req.token, op as KeyringOp, key));
}

/** Runs `op` on each live server (this one directly, the others over RPC with the caller's token). */
async function everyServer(agent: KeyringView, token: string | undefined, op: KeyringOp, key: string) {
  const peers = await livePeers(agent, token);
  const results = await Promise.allSettled(
    peers.map(async (p) =>
      p.rpcAddr === agent.rpcAddress
        ? agent.gossipKeys.apply(op, key)
        : agent.rpc.call<string[]>(p.rpcAddr, 'Agent.Keyring', { op, key }, { token, timeoutMs: 5000 }),
    ),
  );
  const out: KeyringResponse = { Messages: {}, Keys: {}, NumNodes: peers.length };
  results.forEach((r, i) => {
    const name = peers[i]?.name ?? '';
    if (r.status === 'rejected') out.Messages[name] = (r.reason as Error).message;
    else for (const k of r.value) out.Keys[k] = (out.Keys[k] ?? 0) + 1;
  });
  const failed = Object.keys(out.Messages).length;
  if (failed > 0) {
    const first = Object.values(out.Messages)[0];
    throw new InternalError(`${failed}/${peers.length} nodes reported failure: ${first}`);
  }
  return out;
}
