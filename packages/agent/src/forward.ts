import { InternalError, InvalidRequestError } from './errors.js';
import { regionServers, rpcAddressOf } from './server/servers.js';
import type { AgentServices } from './services.js';

/** What finding live servers needs: the gossip view on a server, a server to ask on a client. */
export type PeersView = Pick<AgentServices, 'gossip' | 'config' | 'callServer'>;

/** What resolving and reaching a `server_id`/`node_id` target needs. */
export type ForwardView = PeersView &
  Pick<AgentServices, 'isClient' | 'leaderRpc' | 'nodeId' | 'nodes' | 'rpc' | 'rpcAddress' | 'servers'>;

/** Where a `server_id`/`node_id` request runs. */
export type Target = { kind: 'local' } | { kind: 'remote'; address: string; agentId: string; peer: 'server' | 'agent' };

export interface PeerInfo {
  name: string;
  id: string;
  rpcAddr: string;
}

/**
 * Live servers of the agent's region, from its own gossip view or, on a client, a
 * server's. `token` is the token of the request being forwarded: the RPC checks it.
 */
export async function livePeers(agent: PeersView, token: string | undefined): Promise<PeerInfo[]> {
  if (agent.gossip) {
    const live = regionServers(agent.gossip.members(), agent.config.region).filter(
      (m) => m.state === 'alive' || m.state === 'suspect',
    );
    return live.map((m) => ({ name: m.name, id: m.tags.id ?? '', rpcAddr: rpcAddressOf(m) }));
  }
  return agent.callServer<PeerInfo[]>('Status.Peers', {}, token);
}

/** How an endpoint reports an id it cannot resolve (the established endpoints differ). */
export interface UnknownTargetErrors {
  server(id: string): Error;
  /** Default: 500 `node not found: <id>`, as host answers (pprof answers 404). */
  node?(id: string): Error;
}

/**
 * Resolves `server_id` (a server's name, `name.region`, node ID, or `leader`) or
 * `node_id` (a client's node ID) to where the request should run. An unknown server
 * is `unknownServer`'s error, since endpoints differ on its status.
 */
export async function resolveTarget(
  agent: ForwardView,
  ids: { serverId?: string; nodeId?: string; token: string | undefined },
  unknown: UnknownTargetErrors,
): Promise<Target> {
  if (ids.serverId && ids.nodeId) throw new InvalidRequestError('Cannot target node and server simultaneously');
  if (ids.serverId) return serverTarget(agent, ids.serverId, ids.token, unknown.server);
  if (ids.nodeId) return nodeTarget(agent, ids.nodeId, ids.token, unknown.node);
  return { kind: 'local' };
}

async function serverTarget(
  agent: ForwardView,
  id: string,
  token: string | undefined,
  unknownServer: (id: string) => Error,
): Promise<Target> {
  let address: string | undefined;
  let agentId = id;
  if (id === 'leader') {
    const leader = agent.gossip ? agent.leaderRpc() : await leaderViaServer(agent, token);
    if (!leader) throw new InternalError('No cluster leader');
    if (leader === 'self') return { kind: 'local' };
    address = leader;
  } else {
    const peers = await livePeers(agent, token);
    const region = agent.config.region;
    const p = peers.find((x) => x.name === id || x.name === `${id}.${region}` || x.id === id);
    if (!p) throw unknownServer(id);
    address = p.rpcAddr;
    agentId = p.name;
  }
  return address === agent.rpcAddress ? { kind: 'local' } : { kind: 'remote', address, agentId, peer: 'server' };
}

async function leaderViaServer(agent: ForwardView, token: string | undefined): Promise<string | undefined> {
  return (await agent.callServer<{ leader: string }>('Status.Leader', {}, token)).leader || undefined;
}

async function nodeTarget(
  agent: ForwardView,
  id: string,
  token: string | undefined,
  unknownNode: (id: string) => Error = (x) => new InternalError(`node not found: ${x}`),
): Promise<Target> {
  if (agent.isClient && id === agent.nodeId) return { kind: 'local' };
  const address = await findNode(agent, id, false, token);
  if (!address) throw unknownNode(id);
  return address === agent.rpcAddress ? { kind: 'local' } : { kind: 'remote', address, agentId: id, peer: 'agent' };
}

/** A client's RPC address: from this server's registry, else by asking the servers. */
export async function findNode(
  agent: ForwardView,
  id: string,
  isLocalOnly: boolean,
  token: string | undefined,
): Promise<string | undefined> {
  const local = agent.nodes.get(id);
  if (local) return local.rpcAddr;
  if (isLocalOnly) return undefined;
  const servers = agent.gossip
    ? (await livePeers(agent, token)).map((p) => p.rpcAddr).filter((a) => a !== agent.rpcAddress)
    : (agent.servers?.list() ?? []);
  for (const server of servers) {
    try {
      const r = await agent.rpc.call<{ rpcAddr?: string }>(server, 'Node.Lookup', { id }, { token, timeoutMs: 2000 });
      if (r.rpcAddr) return r.rpcAddr;
    } catch {
      // That server is down or does not know the node: ask the next.
    }
  }
  return undefined;
}
