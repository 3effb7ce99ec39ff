/** The parts `Agent` builds once from its config (gossip, Raft, retry join, a client's server list). @module */
import type { AclStore } from './acl/store.js';
import { ServerList } from './client/server-list.js';
import type { AgentConfig } from './config/config.js';
import { EncryptedTransport } from './gossip/encrypted-transport.js';
import { Memberlist } from './gossip/memberlist.js';
import type { Transport } from './gossip/transport.js';
import type { RaftPeer } from './raft/messages.js';
import { RaftNode } from './raft/raft-node.js';
import { rpcRaftTransport } from './raft/rpc-transport.js';
import { fileRaftState, memoryRaftState } from './raft/state-store.js';
import type { RpcClient } from './rpc/rpc-client.js';
import type { GossipKeys } from './server/gossip-keys.js';
import { RetryJoiner } from './server/retry-join.js';
import { isBootstrapReached, serverTags } from './server/servers.js';
import type { AgentDeps } from './services.js';

/** Who the agent is on the network: what every part names itself with. */
export interface AgentIdentity {
  config: AgentConfig;
  deps: AgentDeps;
  nodeId: string;
  /** `<node>.<region>`. */
  memberName: string;
  advertiseIp: string;
  rpcPort: number;
  rpc: RpcClient;
}

/** A server's gossip pool, encrypted with the keyring when there is one; `onChange` after each membership change. */
export function newMemberlist(id: AgentIdentity, net: Transport, keys: GossipKeys, onChange: () => void): Memberlist {
  const log = id.deps.hub.logger().child({ '@module': 'serf' });
  const keyring = keys.keyring;
  return new Memberlist({
    name: id.memberName,
    tags: serverTags(id.config, { nodeId: id.nodeId, rpcIp: id.advertiseIp, rpcPort: id.rpcPort }),
    transport: keyring ? new EncryptedTransport(net, keyring, log) : net,
    clock: id.deps.clock,
    random: id.deps.random,
    log,
    config: id.config.gossip,
    onChange,
  });
}

/** A server's Raft over RPC, replicating `fsm`; it bootstraps once `bootstrap_expect` servers are alive in `pool`. */
export function newRaft(id: AgentIdentity, fsm: AclStore, pool: Memberlist, peers: () => RaftPeer[]): RaftNode {
  const c = id.config;
  return new RaftNode({
    self: { id: id.memberName, address: `${id.advertiseIp}:${id.rpcPort}` },
    clock: id.deps.clock,
    random: id.deps.random,
    log: id.deps.hub.logger().child({ '@module': 'raft' }),
    transport: rpcRaftTransport(id.rpc, c.raft.electionTimeoutMs),
    fsm,
    store: c.dataDir ? fileRaftState(c.dataDir) : memoryRaftState(),
    timings: c.raft,
    peers,
    canBootstrap: () => isBootstrapReached(pool.members(), c.region, c.server.bootstrapExpect),
  });
}

/** `retry_join`'s joiner; undefined without addresses. */
export function newRetryJoiner(
  id: AgentIdentity,
  join: (addresses: string[]) => Promise<{ numJoined: number; errors: string[] }>,
): RetryJoiner | undefined {
  const retry = id.config.retryJoin;
  if (retry.addresses.length === 0) return undefined;
  return new RetryJoiner({
    clock: id.deps.clock,
    log: id.deps.hub.logger(),
    addresses: retry.addresses,
    intervalMs: retry.intervalMs,
    max: retry.max,
    join,
  });
}

/** A client's servers, heartbeating with the agent token. */
export function newServerList(id: AgentIdentity): ServerList {
  const c = id.config;
  const rpcAddr = `${id.advertiseIp}:${id.rpcPort}`;
  return new ServerList({
    rpc: id.rpc,
    clock: id.deps.clock,
    log: id.deps.hub.logger(),
    // A combined agent (e.g. -dev) with no servers configured uses itself.
    initial: c.client.servers.length > 0 || !c.server.enabled ? c.client.servers : [rpcAddr],
    heartbeatIntervalMs: c.heartbeatIntervalMs,
    self: { nodeId: id.nodeId, name: c.name, rpcAddr, datacenter: c.datacenter },
    token: c.acl.agentToken || undefined,
  });
}
