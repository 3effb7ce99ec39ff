import type { Clock, Logger, Random } from '@ward/base';
import type { Requirement } from './acl/acl.js';
import type { AclService } from './acl/service.js';
import type { AclStore } from './acl/store.js';
import type { ServerList } from './client/server-list.js';
import type { AgentConfig } from './config/config.js';
import type { Profiler } from './debug/pprof.js';
import type { Memberlist } from './gossip/memberlist.js';
import type { LogHub } from './monitor/log-hub.js';
import type { RaftPeer } from './raft/messages.js';
import type { RaftNode } from './raft/raft-node.js';
import type { RpcClient } from './rpc/rpc-client.js';
import type { GossipKeys } from './server/gossip-keys.js';
import type { NodeRegistry } from './server/node-registry.js';

export interface AgentDeps {
  clock: Clock;
  random: Random;
  hub: LogHub;
  /** The process command line, for `pprof/cmdline`. */
  argv: string[];
  env: NodeJS.ProcessEnv;
}

export type { Requirement } from './acl/acl.js';

/** A server's gossip pool as handlers read it (a `Memberlist` at the composition root). */
export type GossipPool = Pick<
  Memberlist,
  'local' | 'members' | 'self' | 'forceLeave' | 'healthScore' | 'lamportTime' | 'queuedBroadcasts'
>;

/** A server's Raft as handlers and the Raft RPC methods use it (a `RaftNode` at the composition root). */
export type Consensus = Pick<
  RaftNode,
  | 'leader'
  | 'isLeader'
  | 'role'
  | 'term'
  | 'commitIndex'
  | 'position'
  | 'lastContactMs'
  | 'voters'
  | 'handleVote'
  | 'handleAppend'
  | 'handleTimeoutNow'
>;

/** A client's known servers as handlers read and replace them (a `ServerList` at the composition root). */
export type KnownServers = Pick<ServerList, 'list' | 'replace' | 'lastHeartbeatMs'>;

/**
 * What HTTP handlers, RPC methods and forwarding may use of a running agent. Each handler
 * declares the few of these it reads (`Pick<AgentServices, …>`), and none imports the
 * `Agent` class: the composition root (`agent.ts`) depends on them, never the reverse.
 * Every member is fixed once the agent is built: the parts a kind of agent does not run
 * (`gossip`, `consensus` on a client; `servers` on a server-only agent) stay undefined.
 */
export interface AgentServices {
  readonly config: AgentConfig;
  readonly deps: AgentDeps;
  readonly log: Logger;
  readonly nodeId: string;
  readonly advertiseIp: string;
  readonly isServer: boolean;
  readonly isClient: boolean;
  /** Gossip name: `<node>.<region>`. */
  readonly memberName: string;
  readonly rpcAddress: string;
  readonly rpcPort: number;
  readonly httpPort: number;
  readonly aclStore: AclStore;
  readonly acl: AclService;
  readonly nodes: NodeRegistry;
  readonly profiler: Profiler;
  readonly gossipKeys: GossipKeys;
  readonly rpc: RpcClient;
  /** A server's gossip pool; undefined on a client-only agent. */
  readonly gossip: GossipPool | undefined;
  /** A server's leader election and ACL replication; undefined on a client-only agent. */
  readonly consensus: Consensus | undefined;
  /** A client's servers; undefined on a server-only agent. */
  readonly servers: KnownServers | undefined;
  raftPeers(): RaftPeer[];
  join(addresses: string[]): Promise<{ numJoined: number; errors: string[] }>;
  callServer<T>(method: string, args: Record<string, unknown>, token: string | undefined): Promise<T>;
  leader(): RaftPeer | undefined;
  leaderRpc(): string | 'self' | undefined;
  authorize(token: string | undefined, need: Requirement): Promise<void>;
}
