import type { Logger } from '@ward/base';
import { meets } from './acl/acl.js';
import { AclService } from './acl/service.js';
import { aclStateFile } from './acl/state-file.js';
import { AclStore } from './acl/store.js';
import { advertiseAddress } from './advertise.js';
import { type AgentIdentity, newMemberlist, newRaft, newRetryJoiner, newServerList } from './agent-parts.js';
import type { ServerList } from './client/server-list.js';
import type { AgentConfig } from './config/config.js';
import { Profiler } from './debug/pprof.js';
import { InternalError, PermissionDeniedError } from './errors.js';
import type { Memberlist } from './gossip/memberlist.js';
import type { Transport } from './gossip/transport.js';
import { NET_NETWORK } from './net-network.js';
import type { AgentNetwork, RpcListener } from './network.js';
import { loadNodeId } from './node-id.js';
import type { RaftPeer } from './raft/messages.js';
import type { RaftNode } from './raft/raft-node.js';
import { rpcMethods } from './rpc/methods.js';
import { type RpcClient, splitHostPort } from './rpc/rpc-client.js';
import { loadRpcTls, type RpcTls } from './rpc/rpc-tls.js';
import { GossipKeys } from './server/gossip-keys.js';
import { NodeRegistry } from './server/node-registry.js';
import { PeersFile } from './server/peers-file.js';
import type { RetryJoiner } from './server/retry-join.js';
import { peerSet, rpcAddressOf } from './server/servers.js';
import type { AgentDeps, AgentServices, Consensus, GossipPool, KnownServers, Requirement } from './services.js';
import type { Listener } from './streams.js';

/** What `Agent.start` binds before it builds the agent: the RPC port first, its number goes in the gossip tags. */
interface Bound {
  network: AgentNetwork;
  rpcTls: RpcTls | undefined;
  rpcListener: RpcListener;
  /** A server's gossip transport; undefined on a client-only agent. */
  gossip: Transport | undefined;
}

/**
 * One running agent: the composition root. It builds every part once, from the injected
 * network (`AgentNetwork`: gossip transport, RPC server and client, HTTP server), clock and
 * randomness, and owns every listener and timer. Handlers see it only as `AgentServices`.
 */
export class Agent implements AgentServices {
  readonly log: Logger;
  readonly aclStore: AclStore;
  readonly acl: AclService;
  readonly nodes: NodeRegistry;
  readonly profiler: Profiler;
  /** Every outgoing RPC goes through this (mutual TLS with `tls { rpc = true }`). */
  readonly rpc: RpcClient;
  /** A server's gossip keyring (none on a client, or without `encrypt`). */
  readonly gossipKeys: GossipKeys;
  readonly #memberlist: Memberlist | undefined;
  /** The leader election and ACL replication of a server; undefined on a client-only agent. */
  readonly #raft: RaftNode | undefined;
  readonly #serverList: ServerList | undefined;
  readonly #network: AgentNetwork;
  readonly #rpcListener: RpcListener;
  readonly #peersFile: PeersFile | undefined;
  readonly #retryJoin: RetryJoiner | undefined;
  #http: Listener | undefined;
  #isStopping = false;

  private constructor(
    readonly config: AgentConfig,
    readonly deps: AgentDeps,
    readonly nodeId: string,
    readonly advertiseIp: string,
    bound: Bound,
  ) {
    const c = config;
    this.log = deps.hub.logger();
    const keepsState = c.dataDir !== '' && c.server.enabled;
    this.aclStore = new AclStore({
      clock: deps.clock,
      random: deps.random,
      currentTerm: () => this.#raft?.term ?? 0,
      persistence: keepsState ? aclStateFile(c.dataDir) : undefined,
    });
    this.nodes = new NodeRegistry();
    this.#network = bound.network;
    this.#rpcListener = bound.rpcListener;
    this.rpc = this.#network.rpcClient(c.bindAddr, bound.rpcTls, deps.clock);
    this.profiler = new Profiler(deps.argv, deps.clock);
    this.#peersFile = keepsState ? new PeersFile(c.dataDir) : undefined;
    this.gossipKeys = GossipKeys.open({
      dataDir: keepsState ? c.dataDir : '',
      encrypt: c.server.enabled ? c.encrypt : '',
      random: deps.random,
      log: this.log,
    });
    const id: AgentIdentity = {
      config,
      deps,
      nodeId,
      memberName: this.memberName,
      advertiseIp,
      rpcPort: this.rpcPort,
      rpc: this.rpc,
    };
    if (bound.gossip) {
      const pool = newMemberlist(id, bound.gossip, this.gossipKeys, () => this.#savePeers());
      this.#memberlist = pool;
      this.#raft = newRaft(id, this.aclStore, pool, () => this.raftPeers());
      this.#retryJoin = newRetryJoiner(id, (addresses) => this.join(addresses));
    }
    if (c.client.enabled) this.#serverList = newServerList(id);
    this.acl = new AclService(this.aclStore, {
      isEnabled: c.acl.enabled,
      isServer: c.server.enabled,
      leader: () => this.leaderRpc(),
      callServer: (method, args, token) => this.callServer(method, args, token),
      callAt: (address, method, args, token) => this.rpc.call(address, method, args, { token }),
      commit: (write) => this.#raftOrThrow().apply(write),
    });
  }

  /** Starts an agent; `network` is every socket it opens (the real network unless a test gives its own). */
  static async start(config: AgentConfig, deps: AgentDeps, network: AgentNetwork = NET_NETWORK): Promise<Agent> {
    const nodeId = await loadNodeId(config.dataDir, deps.random);
    const rpcTls = loadRpcTls(config.tls, config.region);
    const advertiseIp = advertiseAddress(config.bindAddr);
    const rpcLog = deps.hub.logger().child({ '@module': 'rpc' });
    const rpcListener = await network.rpcServer(config.bindAddr, config.ports.rpc, rpcLog, rpcTls);
    let agent: Agent;
    try {
      const gossip = config.server.enabled
        ? await network.gossip(config.bindAddr, config.ports.serf, advertiseIp)
        : undefined;
      try {
        agent = new Agent(config, deps, nodeId, advertiseIp, { network, rpcTls, rpcListener, gossip });
      } catch (err) {
        await gossip?.close();
        throw err;
      }
    } catch (err) {
      await rpcListener.close();
      throw err;
    }
    try {
      await agent.#run();
    } catch (err) {
      await agent.stop(false);
      throw err;
    }
    return agent;
  }

  async #run(): Promise<void> {
    const c = this.config;
    this.#rpcListener.serve(rpcMethods(this));
    if (this.#memberlist && this.#raft) {
      this.#memberlist.start();
      this.#raft.start();
      const known = this.#peersFile ? await this.#peersFile.load() : [];
      const join = [...new Set([...c.join, ...known])];
      if (join.length > 0) {
        const res = await this.join(join);
        if (res.numJoined === 0) this.log.warn('agent: join at start failed', { error: res.errors.join('; ') });
      }
      this.#retryJoin?.start();
    }
    this.#serverList?.start();
    const api = {
      clock: this.deps.clock,
      log: this.log,
      isServer: this.isServer,
      isClient: this.isClient,
      authorize: (token: string | undefined, need: Requirement) => this.authorize(token, need),
      services: this,
    };
    this.#http = await this.#network.http(api, c.bindAddr, c.ports.http);
    this.log.info('agent: started', {
      name: c.name,
      server: c.server.enabled,
      client: c.client.enabled,
      http: this.httpPort,
      rpc: this.rpcPort,
      serf: this.#memberlist?.local.port,
      encrypted: this.gossipKeys.isEnabled,
      rpc_tls: this.rpc.isTls,
    });
    if (c.server.enabled && c.acl.enabled && !c.devMode && !(this.gossipKeys.isEnabled && this.rpc.isTls)) {
      // Join is open by design: without both, whoever reaches the gossip and RPC ports can
      // become a member, and a member holds the replicated ACL state, token secrets included.
      this.log.warn(
        'agent: ACLs are on without gossip encryption (encrypt) and RPC TLS (tls { rpc }): anyone who reaches the gossip and RPC ports can join and receive the ACL state',
      );
    }
  }

  get gossip(): GossipPool | undefined {
    return this.#memberlist;
  }

  get consensus(): Consensus | undefined {
    return this.#raft;
  }

  get servers(): KnownServers | undefined {
    return this.#serverList;
  }

  /** The Raft voters as gossip shows them: the region's servers that have not left. */
  raftPeers(): RaftPeer[] {
    const members = this.#memberlist?.members() ?? [];
    return peerSet(members, this.config.region).map((m) => ({ id: m.name, address: rpcAddressOf(m) }));
  }

  #raftOrThrow(): RaftNode {
    if (!this.#raft) throw new InternalError('not a server');
    return this.#raft;
  }

  #savePeers(): void {
    const ml = this.#memberlist;
    if (!this.#peersFile || !ml) return;
    const peers = ml.table.live().map((m) => `${m.addr}:${m.port}`);
    // With every peer down, the last list is still the best guess for a restart.
    if (peers.length === 0) return;
    this.#peersFile.save(peers).catch((err: unknown) => this.log.warn('agent: cannot save peers', { error: err }));
  }

  get isServer(): boolean {
    return this.config.server.enabled;
  }

  get isClient(): boolean {
    return this.config.client.enabled;
  }

  /** Gossip name: `<node>.<region>`. */
  get memberName(): string {
    return `${this.config.name}.${this.config.region}`;
  }

  get rpcPort(): number {
    return this.#rpcListener.port;
  }

  get httpPort(): number {
    return this.#http?.port ?? this.config.ports.http;
  }

  get rpcAddress(): string {
    return `${this.advertiseIp}:${this.rpcPort}`;
  }

  /** Join gossip peers by `host[:port]` (default port: our own gossip port). */
  async join(addresses: string[]): Promise<{ numJoined: number; errors: string[] }> {
    const ml = this.#memberlist;
    if (!ml) return { numJoined: 0, errors: ['not a server'] };
    const targets = addresses.map((a) => {
      const { host, port } = splitHostPort(a, ml.local.port);
      return { addr: host, port };
    });
    const res = await ml.join(targets);
    this.log.info('agent: join', { addresses: addresses.join(','), num_joined: res.numJoined });
    return res;
  }

  /** Calls `method` on one of a client's servers (see `ServerList.call`). */
  async callServer<T>(method: string, args: Record<string, unknown>, token: string | undefined): Promise<T> {
    if (!this.#serverList) throw new InternalError('no known servers');
    return await this.#serverList.call<T>(method, args, { token });
  }

  /** The Raft leader this server knows of (itself included); undefined on a client or without one. */
  leader(): RaftPeer | undefined {
    return this.#raft?.leader;
  }

  /** 'self' when this agent leads, the leader's RPC address otherwise, undefined without one. */
  leaderRpc(): string | 'self' | undefined {
    const l = this.leader();
    if (!l) return undefined;
    return l.id === this.memberName ? 'self' : l.address;
  }

  /** Resolves `token` and checks `need`; throws 403 (`Permission denied` or `ACL token not found`). */
  async authorize(token: string | undefined, need: Requirement): Promise<void> {
    // Endpoints that need nothing (health, join) must work even with a stale or bad token.
    if (need === 'none') return;
    if (!meets(await this.acl.resolve(token), need, this.config.enableDebug)) {
      throw new PermissionDeniedError('Permission denied');
    }
  }

  /** Stops everything; with `leave`, first tells the pool this server left (graceful leave). */
  async stop(leave: boolean): Promise<void> {
    if (this.#isStopping) return;
    this.#isStopping = true;
    if (leave && this.#raft) {
      await this.#raft.transferLeadership();
      this.#raft.stop();
    }
    if (leave && this.#memberlist) await this.#memberlist.leave();
    this.#serverList?.stop();
    this.#retryJoin?.stop();
    this.#raft?.stop();
    await this.#http?.close();
    await this.#memberlist?.shutdown();
    await this.#rpcListener.close();
    this.log.info('agent: stopped');
  }
}
