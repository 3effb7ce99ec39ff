import { availableParallelism } from 'node:os';
import type { Agent } from './agent.js';
import { VERSION } from './config/config.js';
import { formatDuration } from './config/duration.js';
import { localMembers, toApiMember, ZERO_MEMBER } from './members.js';

type Stats = Record<string, Record<string, string>>;

/** GET /v1/agent/self: `config`, `member` and `stats`. */
export function selfResponse(agent: Agent): { config: unknown; member: unknown; stats: Stats } {
  const self = agent.memberlist?.self();
  return { config: configView(agent), member: self ? toApiMember(self) : ZERO_MEMBER, stats: stats(agent) };
}

/** The effective configuration under the established Go field names. */
function configView(agent: Agent): Record<string, unknown> {
  const c = agent.config;
  const ip = agent.advertiseIp;
  const serf = agent.memberlist?.local.port ?? c.ports.serf;
  return {
    Region: c.region,
    Datacenter: c.datacenter,
    NodeName: c.name,
    DataDir: c.dataDir,
    PluginDir: '',
    LogLevel: c.logLevel.toUpperCase(),
    LogJson: c.logJson,
    BindAddr: c.bindAddr,
    EnableDebug: c.enableDebug === true,
    Ports: { HTTP: agent.httpPort, RPC: agent.rpcPort, Serf: serf },
    Addresses: { HTTP: c.bindAddr, RPC: c.bindAddr, Serf: c.bindAddr },
    AdvertiseAddrs: { HTTP: `${ip}:${agent.httpPort}`, RPC: `${ip}:${agent.rpcPort}`, Serf: `${ip}:${serf}` },
    Client: { Enabled: c.client.enabled, Servers: c.client.servers, NodeClass: '', StateDir: '', AllocDir: '' },
    Server: {
      Enabled: c.server.enabled,
      BootstrapExpect: c.server.bootstrapExpect,
      StartJoin: c.join,
      ProbeIntervalMs: c.gossip.probeIntervalMs,
      ProbeTimeoutMs: c.gossip.probeTimeoutMs,
      SuspicionMult: c.gossip.suspicionMult,
    },
    ACL: { Enabled: c.acl.enabled, ReplicationToken: '', AgentToken: c.acl.agentToken ? '<redacted>' : '' },
    Telemetry: { CollectionInterval: '1s', DisableHostname: false, CirconusAPIToken: '' },
    LeaveOnInt: true,
    LeaveOnTerm: true,
    EnableSyslog: false,
    SyslogFacility: 'LOCAL0',
    DisableUpdateCheck: true,
    // Integrations the established agent has; Ward runs without them, so they are shown disabled.
    Consul: { Address: '', Auth: '', ServerAutoJoin: false, ClientAutoJoin: false, Token: '' },
    Vault: { Enabled: false, Addr: '', Token: '' },
    TLSConfig: { EnableHTTP: false, EnableRPC: false, VerifyServerHostname: false },
    DevMode: c.devMode,
    Revision: '',
    Version: VERSION,
    VersionPrerelease: '',
  };
}

function stats(agent: Agent): Stats {
  const out: Stats = {
    runtime: {
      arch: process.arch === 'x64' ? 'amd64' : process.arch,
      cpu_count: String(availableParallelism()),
      // Node has no goroutines: the closest count of concurrent work is active handles.
      goroutines: String(
        (process as unknown as { getActiveResourcesInfo(): string[] }).getActiveResourcesInfo().length,
      ),
      'kernel.name': process.platform,
      max_procs: String(availableParallelism()),
      version: process.version,
    },
  };
  if (agent.isServer) Object.assign(out, serverStats(agent));
  if (agent.serverList) {
    const last = agent.serverList.lastHeartbeatMs;
    out.client = {
      node_id: agent.nodeId,
      known_servers: agent.serverList.list().join(','),
      num_allocations: '0',
      last_heartbeat: last === undefined ? 'never' : formatDuration(agent.deps.clock.now() - last),
      heartbeat_ttl: formatDuration(agent.config.heartbeatIntervalMs),
    };
  }
  return out;
}

function serverStats(agent: Agent): Stats {
  const members = localMembers(agent).Members;
  const leader = agent.leader();
  const isLeader = leader?.id === agent.memberName;
  return {
    nomad: {
      server: 'true',
      leader: String(isLeader),
      leader_addr: leader?.address ?? '',
      bootstrap: String(agent.config.server.bootstrapExpect === 1),
      known_regions: String(new Set(members.filter((m) => m.Tags?.role).map((m) => m.Tags?.region)).size),
    },
    raft: raftStats(agent),
    serf: {
      members: String(members.length),
      failed: String(members.filter((m) => m.Status === 'failed').length),
      left: String(members.filter((m) => m.Status === 'left').length),
      health_score: String(agent.memberlist?.healthScore ?? 0),
      member_time: String(agent.memberlist?.lamportTime ?? 0),
      intent_queue: String(agent.memberlist?.queuedBroadcasts ?? 0),
      encrypted: 'false',
    },
  };
}

/** The `raft` section: this server's real election and replication state. */
function raftStats(agent: Agent): Record<string, string> {
  const raft = agent.raft;
  if (!raft) return {};
  const peers = agent.raftPeers();
  const ids = new Map((agent.memberlist?.members() ?? []).map((m) => [m.name, m.tags.id ?? '']));
  const config = peers.map((p) => `{Suffrage:Voter ID:${ids.get(p.id) ?? ''} Address:${p.address}}`);
  const last = raft.position;
  const contact = raft.lastContactMs;
  return {
    state: raft.role,
    term: String(raft.term),
    last_log_index: String(last.index),
    last_log_term: String(last.term),
    commit_index: String(raft.commitIndex),
    // The state machine is the replicated state itself: what is held is what is applied.
    applied_index: String(last.index),
    fsm_pending: '0',
    num_peers: String(Math.max(0, peers.length - 1)),
    latest_configuration: `[${config.join(' ')}]`,
    last_contact: raft.isLeader
      ? '0'
      : contact === undefined
        ? 'never'
        : formatDuration(agent.deps.clock.now() - contact),
    protocol_version: '3',
    protocol_version_min: '0',
    protocol_version_max: '3',
  };
}
