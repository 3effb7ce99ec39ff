import type { Clock, Logger, Random } from '@ward/base';
import { allows, allowsAgentDebug, type Capability } from './acl/acl.js';
import { AclService } from './acl/service.js';
import { type AclSnapshot, AclStore } from './acl/store.js';
import { advertiseAddress } from './advertise.js';
import { ServerList } from './client/server-list.js';
import { type AgentConfig, VERSION } from './config/config.js';
import { Profiler } from './debug/pprof.js';
import { InternalError, PermissionDeniedError } from './errors.js';
import { Memberlist } from './gossip/memberlist.js';
import type { MemberRecord } from './gossip/messages.js';
import { NetTransport } from './gossip/net-transport.js';
import { HttpServer } from './http/server.js';
import type { LogHub } from './monitor/log-hub.js';
import { loadNodeId } from './node-id.js';
import { rpcMethods } from './rpc/methods.js';
import { splitHostPort } from './rpc/rpc-client.js';
import { RpcServer } from './rpc/rpc-server.js';
import { NodeRegistry } from './server/node-registry.js';
import { PeersFile } from './server/peers-file.js';
import { chooseLeader, isBootstrapReached, regionServers, rpcAddressOf, SERVER_ROLE } from './server/servers.js';

export interface AgentDeps {
  clock: Clock;
  random: Random;
  hub: LogHub;
  /** The process command line, for `pprof/cmdline`. */
  argv: string[];
  env: NodeJS.ProcessEnv;
}

/** What a request needs before it may run (route table and RPC methods). */
export type Requirement = Capability | 'none' | 'debug' | 'pprof';

/** One running agent: the composition root that owns every listener and timer. */
export class Agent {
  readonly log: Logger;
  readonly aclStore: AclStore;
  readonly acl: AclService;
  readonly nodes: NodeRegistry;
  readonly profiler: Profiler;
  memberlist: Memberlist | undefined;
  serverList: ServerList | undefined;
  #rpc: RpcServer | undefined;
  #http: HttpServer | undefined;
  #isStopping = false;
  #isBootstrapped = false;
  readonly #peersFile: PeersFile | undefined;

  private constructor(
    readonly config: AgentConfig,
    readonly deps: AgentDeps,
    readonly nodeId: string,
    readonly advertiseIp: string,
  ) {
    this.log = deps.hub.logger();
    this.aclStore = new AclStore(this.memberName, deps.clock, deps.random);
    this.nodes = new NodeRegistry();
    this.profiler = new Profiler(deps.argv);
    this.#peersFile = config.dataDir && config.server.enabled ? new PeersFile(config.dataDir) : undefined;
    this.acl = new AclService(this.aclStore, {
      isEnabled: config.acl.enabled,
      isServer: config.server.enabled,
      leader: () => this.leaderRpc(),
      callServer: (method, args, token) => this.callServer(method, args, token),
      replicate: () => this.#replicateNow(),
    });
  }

  static async start(config: AgentConfig, deps: AgentDeps): Promise<Agent> {
    const nodeId = await loadNodeId(config.dataDir, deps.random);
    const agent = new Agent(config, deps, nodeId, advertiseAddress(config.bindAddr));
    try {
      await agent.#listen();
    } catch (err) {
      await agent.stop(false);
      throw err;
    }
    return agent;
  }

  async #listen(): Promise<void> {
    const c = this.config;
    this.#rpc = await RpcServer.listen(c.bindAddr, c.ports.rpc, rpcMethods(this), this.log.child({ '@module': 'rpc' }));
    if (c.server.enabled) await this.#startGossip();
    if (c.client.enabled) {
      this.serverList = new ServerList({
        clock: this.deps.clock,
        log: this.log,
        // A combined agent (e.g. -dev) with no servers configured uses itself.
        initial: c.client.servers.length > 0 || !c.server.enabled ? c.client.servers : [this.rpcAddress],
        heartbeatIntervalMs: c.heartbeatIntervalMs,
        self: { nodeId: this.nodeId, name: c.name, rpcAddr: this.rpcAddress },
        token: c.acl.agentToken || undefined,
      });
      this.serverList.start();
    }
    this.#http = await HttpServer.listen(this, c.bindAddr, c.ports.http);
    this.log.info('agent: started', {
      name: c.name,
      server: c.server.enabled,
      client: c.client.enabled,
      http: this.httpPort,
      rpc: this.rpcPort,
      serf: this.memberlist?.local.port,
    });
  }

  async #startGossip(): Promise<void> {
    const c = this.config;
    const transport = await NetTransport.listen(c.bindAddr, c.ports.serf, this.advertiseIp);
    this.memberlist = new Memberlist({
      name: this.memberName,
      tags: this.#tags(),
      transport,
      clock: this.deps.clock,
      random: this.deps.random,
      log: this.log.child({ '@module': 'serf' }),
      config: c.gossip,
      delegate: c.acl.enabled
        ? {
            localState: () => this.aclStore.snapshot(),
            mergeRemoteState: (s) => {
              if (this.aclStore.merge(s as AclSnapshot)) this.log.debug('acl: adopted replicated state');
            },
          }
        : undefined,
      onChange: () => this.#savePeers(),
    });
    this.memberlist.start();
    const known = this.#peersFile ? await this.#peersFile.load() : [];
    const join = [...new Set([...c.join, ...known])];
    if (join.length > 0) {
      const res = await this.join(join);
      if (res.numJoined === 0) this.log.warn('agent: join at start failed', { error: res.errors.join('; ') });
    }
  }

  #savePeers(): void {
    const ml = this.memberlist;
    if (!this.#peersFile || !ml) return;
    const peers = ml.table.live().map((m) => `${m.addr}:${m.port}`);
    // With every peer down, the last list is still the best guess for a restart.
    if (peers.length === 0) return;
    this.#peersFile.save(peers).catch((err: unknown) => this.log.warn('agent: cannot save peers', { error: err }));
  }

  #tags(): Record<string, string> {
    const c = this.config;
    const tags: Record<string, string> = {
      role: SERVER_ROLE,
      region: c.region,
      dc: c.datacenter,
      build: VERSION,
      revision: '',
      vsn: '1',
      raft_vsn: '3',
      id: this.nodeId,
      rpc_addr: this.advertiseIp,
      port: String(this.rpcPort),
    };
    if (c.server.bootstrapExpect === 1) tags.bootstrap = '1';
    if (c.server.bootstrapExpect > 0) tags.expect = String(c.server.bootstrapExpect);
    return tags;
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
    return this.#rpc?.port ?? this.config.ports.rpc;
  }

  get httpPort(): number {
    return this.#http?.port ?? this.config.ports.http;
  }

  get rpcAddress(): string {
    return `${this.advertiseIp}:${this.rpcPort}`;
  }

  /** Join gossip peers by `host[:port]` (default port: our own gossip port). */
  async join(addresses: string[]): Promise<{ numJoined: number; errors: string[] }> {
    const ml = this.memberlist;
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
    if (!this.serverList) throw new InternalError('no known servers');
    return await this.serverList.call<T>(method, args, { token });
  }

  leader(): MemberRecord | undefined {
    if (!this.memberlist) return undefined;
    const members = this.memberlist.members();
    const { region, server } = this.config;
    // Like a Raft cluster, once bootstrapped it stays so; it then needs only a quorum.
    this.#isBootstrapped ||= isBootstrapReached(members, region, server.bootstrapExpect);
    return chooseLeader(members, region, this.#isBootstrapped);
  }

  /** 'self' when this agent leads, the leader's RPC address otherwise, undefined without one. */
  leaderRpc(): string | 'self' | undefined {
    const l = this.leader();
    if (!l) return undefined;
    return l.name === this.memberName ? 'self' : rpcAddressOf(l);
  }

  /** Resolves `token` and checks `need`; throws 403 (`Permission denied` or `ACL token not found`). */
  async authorize(token: string | undefined, need: Requirement): Promise<void> {
    // Endpoints that need nothing (health, join) must work even with a stale or bad token.
    if (need === 'none') return;
    const acl = await this.acl.resolve(token);
    const debug = this.config.enableDebug;
    const ok =
      need === 'debug'
        ? allowsAgentDebug(acl, debug)
        : need === 'pprof'
          ? allows(acl, 'agent:write') && allowsAgentDebug(acl, debug)
          : allows(acl, need);
    if (!ok) throw new PermissionDeniedError('Permission denied');
  }

  /** After an ACL write on the leader: push-pull with every other live server at once. */
  async #replicateNow(): Promise<void> {
    const ml = this.memberlist;
    if (!ml) return;
    const peers = regionServers(ml.table.live(), this.config.region);
    await Promise.allSettled(peers.map((p) => ml.pushPull(p)));
  }

  /** Stops everything; with `leave`, first tells the pool this server left (graceful leave). */
  async stop(leave: boolean): Promise<void> {
    if (this.#isStopping) return;
    this.#isStopping = true;
    if (leave && this.memberlist) await this.memberlist.leave();
    this.serverList?.stop();
    await this.#http?.close();
    await this.memberlist?.shutdown();
    await this.#rpc?.close();
    this.log.info('agent: stopped');
  }
}
