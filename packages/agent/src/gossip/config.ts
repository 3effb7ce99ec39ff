/** Timings and fan-outs of the gossip protocol; see memberlist's config.go for their meaning. */
export interface GossipConfig {
  probeIntervalMs: number;
  probeTimeoutMs: number;
  suspicionMult: number;
  suspicionMaxTimeoutMult: number;
  indirectChecks: number;
  retransmitMult: number;
  gossipIntervalMs: number;
  gossipNodes: number;
  pushPullIntervalMs: number;
  tcpTimeoutMs: number;
  /** How often a failed member is retried with a push-pull, so a healed node comes back. */
  reconnectIntervalMs: number;
  reapIntervalMs: number;
  /** Failed members are erased after this long. */
  reconnectTimeoutMs: number;
  /** Left members are erased after this long. */
  tombstoneTimeoutMs: number;
}

/** The WAN profile Nomad uses for server gossip, plus Serf's reaping defaults (Nomad: 72 h). */
const WAN_GOSSIP: GossipConfig = {
  probeIntervalMs: 5000,
  probeTimeoutMs: 3000,
  suspicionMult: 6,
  suspicionMaxTimeoutMult: 6,
  indirectChecks: 3,
  retransmitMult: 4,
  gossipIntervalMs: 500,
  gossipNodes: 4,
  pushPullIntervalMs: 60_000,
  tcpTimeoutMs: 30_000,
  reconnectIntervalMs: 30_000,
  reapIntervalMs: 15_000,
  reconnectTimeoutMs: 72 * 3600_000,
  tombstoneTimeoutMs: 24 * 3600_000,
};

/**
 * memberlist's LAN profile (same reaping): a silent member is noticed within a few
 * seconds, at the price of more probe and gossip traffic.
 */
const LAN_GOSSIP: GossipConfig = {
  ...WAN_GOSSIP,
  probeIntervalMs: 1000,
  probeTimeoutMs: 500,
  suspicionMult: 4,
  gossipIntervalMs: 200,
  gossipNodes: 3,
  pushPullIntervalMs: 30_000,
  tcpTimeoutMs: 10_000,
};

export type GossipProfile = 'wan' | 'lan';

export const GOSSIP_PROFILES: ReadonlyMap<GossipProfile, GossipConfig> = new Map([
  ['wan', WAN_GOSSIP],
  ['lan', LAN_GOSSIP],
]);

/** The default, as the established agent uses for its servers. */
export const DEFAULT_GOSSIP: GossipConfig = WAN_GOSSIP;

export function isGossipProfile(v: string): v is GossipProfile {
  return GOSSIP_PROFILES.has(v as GossipProfile);
}
