/** The agent's configuration: defaults, the HCL or JSON file, flags, and their checks. @module */
import type { LogLevel } from '@ward/base';
import { DEFAULT_GOSSIP, GOSSIP_PROFILES, type GossipConfig, type GossipProfile } from '../gossip/config.js';
import { DEFAULT_RAFT, type RaftTimings } from '../raft/raft-node.js';

/** The agent's effective configuration after defaults, config file and flags. */
export interface AgentConfig {
  name: string;
  region: string;
  datacenter: string;
  /** Empty: nothing is persisted (as in dev mode). */
  dataDir: string;
  bindAddr: string;
  ports: { http: number; rpc: number; serf: number };
  server: { enabled: boolean; bootstrapExpect: number };
  client: { enabled: boolean; servers: string[] };
  /**
   * `agentToken`: the secret this agent presents for its own RPCs when ACLs are on (a
   * client registering with its servers needs node:write); empty when none.
   */
  acl: { enabled: boolean; agentToken: string };
  /** `undefined` = unset, which matters for pprof availability. */
  enableDebug: boolean | undefined;
  logLevel: LogLevel;
  logJson: boolean;
  devMode: boolean;
  /** Gossip addresses to join at start (`-join`, `server { start_join }`). */
  join: string[];
  /** `server_join { retry_join, retry_interval, retry_max }`: joins retried until one answers. */
  retryJoin: { addresses: string[]; intervalMs: number; max: number };
  /** `gossip_profile`: the base the `gossip` timings start from. */
  gossipProfile: GossipProfile;
  gossip: GossipConfig;
  /** Leader election timings (Ward's own `raft { … }` block). */
  raft: RaftTimings;
  /** How often a client heartbeats a server over RPC. */
  heartbeatIntervalMs: number;
  /**
   * `server { encrypt }`, `-encrypt`: the gossip key (base64 of 16, 24 or 32 bytes) a server
   * starts its keyring with; empty: gossip in the clear. A keyring kept in the data dir wins.
   */
  encrypt: string;
  /** `tls { … }`: mutual TLS on the RPC port. */
  tls: TlsConfig;
}

export interface TlsConfig {
  /** TLS on every RPC connection, both ways, with certificates checked against `caFile`. */
  rpc: boolean;
  /**
   * Servers prove `server.<region>.nomad` in their certificate (an agent dialing a server
   * checks it; a server takes Raft traffic only from such a certificate), so a client
   * certificate cannot pose as a server.
   */
  verifyServerHostname: boolean;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A partial config as read from one source; later sources override earlier ones. */
export type ConfigLayer = {
  [K in keyof AgentConfig]?: AgentConfig[K] extends object
    ? AgentConfig[K] extends unknown[]
      ? AgentConfig[K]
      : Partial<AgentConfig[K]>
    : AgentConfig[K];
};

export const VERSION = '0.1.0';

export function defaultConfig(hostname: string): AgentConfig {
  return {
    name: hostname,
    region: 'global',
    datacenter: 'dc1',
    dataDir: '',
    bindAddr: '0.0.0.0',
    ports: { http: 4646, rpc: 4647, serf: 4648 },
    server: { enabled: false, bootstrapExpect: 0 },
    client: { enabled: false, servers: [] },
    acl: { enabled: false, agentToken: '' },
    enableDebug: undefined,
    logLevel: 'info',
    logJson: false,
    devMode: false,
    join: [],
    retryJoin: { addresses: [], intervalMs: 30_000, max: 0 },
    gossipProfile: 'wan',
    gossip: { ...DEFAULT_GOSSIP },
    raft: { ...DEFAULT_RAFT },
    heartbeatIntervalMs: 10_000,
    encrypt: '',
    tls: { rpc: false, verifyServerHostname: false, caFile: '', certFile: '', keyFile: '' },
  };
}

/** The dev profile: one server+client on loopback, a single-server cluster. */
export function devLayer(): ConfigLayer {
  return {
    devMode: true,
    bindAddr: '127.0.0.1',
    server: { enabled: true, bootstrapExpect: 1 },
    client: { enabled: true },
    logLevel: 'debug',
  };
}

/**
 * Applies layers in order; nested sections merge key by key. A layer that names a
 * `gossipProfile` resets the gossip timings to that profile, and every timing set
 * explicitly in these layers then applies on top, whatever the order.
 */
export function mergeConfig(base: AgentConfig, ...layers: ConfigLayer[]): AgentConfig {
  const out: AgentConfig = structuredClone(base);
  const target = out as unknown as Record<string, unknown>;
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const current = target[key];
      if (isPlainObject(value) && isPlainObject(current)) {
        target[key] = { ...current, ...stripUndefined(value) };
      } else {
        target[key] = value;
      }
    }
  }
  const profile = layers.some((l) => l.gossipProfile !== undefined)
    ? GOSSIP_PROFILES.get(out.gossipProfile)
    : undefined;
  if (profile) {
    out.gossip = Object.assign({ ...profile }, ...layers.map((l) => stripUndefined(l.gossip ?? {})));
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
