import { availableParallelism } from 'node:os';
import { formatDurationMs } from '@ward/base';
import { localMembers } from './members.js';
import type { AgentServices } from './services.js';

/** What the `stats` sections read. */
export type StatsView = Pick<
  AgentServices,
  | 'config'
  | 'deps'
  | 'gossipKeys'
  | 'isClient'
  | 'isServer'
  | 'leader'
  | 'memberName'
  | 'gossip'
  | 'nodeId'
  | 'consensus'
  | 'raftPeers'
  | 'servers'
>;

export type Stats = Record<string, Record<string, string>>;

/**
 * `stats` of GET /v1/agent/self: every section the spec names on every agent kind, all
 * values strings. A section for a role the agent does not run says so with
 * `enabled = "false"` instead of being left out.
 */
export function stats(agent: StatsView): Stats {
  return {
    runtime: runtimeStats(),
    nomad: agentStats(agent),
    raft: agent.consensus ? raftStats(agent) : { enabled: 'false', state: 'none' },
    serf: agent.gossip ? serfStats(agent) : { enabled: 'false' },
    client: agent.servers ? clientStats(agent) : { enabled: 'false' },
  };
}

function runtimeStats(): Record<string, string> {
  return {
    arch: process.arch === 'x64' ? 'amd64' : process.arch,
    cpu_count: String(availableParallelism()),
    // Node has no goroutines: the closest count of concurrent work is active handles.
    goroutines: String((process as unknown as { getActiveResourcesInfo(): string[] }).getActiveResourcesInfo().length),
    'kernel.name': process.platform,
    max_procs: String(availableParallelism()),
    version: process.version,
  };
}

/** The agent's own section (`nomad` in the established API). */
function agentStats(agent: StatsView): Record<string, string> {
  const leader = agent.leader();
  const members = agent.gossip ? localMembers(agent).Members : [];
  return {
    server: String(agent.isServer),
    client: String(agent.isClient),
    leader: String(leader !== undefined && leader.id === agent.memberName),
    leader_addr: leader?.address ?? '',
    bootstrap: String(agent.isServer && agent.config.server.bootstrapExpect === 1),
    known_regions: String(new Set(members.filter((m) => m.Tags?.role).map((m) => m.Tags?.region)).size),
  };
}

function clientStats(agent: StatsView): Record<string, string> {
  const list = agent.servers!;
  const last = list.lastHeartbeatMs;
  return {
    enabled: 'true',
    node_id: agent.nodeId,
    known_servers: list.list().join(','),
    num_allocations: '0',
    last_heartbeat: last === undefined ? 'never' : formatDurationMs(agent.deps.clock.now() - last),
    heartbeat_ttl: formatDurationMs(agent.config.heartbeatIntervalMs),
  };
}

function serfStats(agent: StatsView): Record<string, string> {
  const ml = agent.gossip!;
  const members = localMembers(agent).Members;
  return {
    members: String(members.length),
    failed: String(members.filter((m) => m.Status === 'failed').length),
    left: String(members.filter((m) => m.Status === 'left').length),
    health_score: String(ml.healthScore),
    member_time: String(ml.lamportTime),
    event_time: '1',
    query_time: '1',
    intent_queue: String(ml.queuedBroadcasts),
    event_queue: '0',
    query_queue: '0',
    encrypted: String(agent.gossipKeys.isEnabled),
    coordinate_resets: '0',
  };
}

/** The `raft` section: this server's real election and replication state. */
function raftStats(agent: StatsView): Record<string, string> {
  const raft = agent.consensus!;
  const peers = agent.raftPeers();
  const ids = new Map((agent.gossip?.members() ?? []).map((m) => [m.name, m.tags.id ?? '']));
  const voters = new Set(raft.voters().map((p) => p.id));
  const suffrage = (id: string) => (voters.has(id) ? 'Voter' : 'Nonvoter');
  const config = peers.map((p) => `{Suffrage:${suffrage(p.id)} ID:${ids.get(p.id) ?? ''} Address:${p.address}}`);
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
    num_peers: String(Math.max(0, voters.size - 1)),
    latest_configuration: `[${config.join(' ')}]`,
    last_contact: raft.isLeader
      ? '0'
      : contact === undefined
        ? 'never'
        : formatDurationMs(agent.deps.clock.now() - contact),
    protocol_version: '3',
    protocol_version_min: '0',
    protocol_version_max: '3',
  };
}
