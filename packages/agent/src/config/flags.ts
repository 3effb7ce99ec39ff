import { durationMs, type FlagKind, type FlagValue, type LogLevel, parseGoFlags, UsageError } from '@ward/base';
import { type GossipConfig, isGossipProfile } from '../gossip/config.js';
import type { ConfigLayer } from './config.js';

/** What the command line asks for: config files to read, then a layer that overrides them. */
export interface ParsedFlags {
  isDev: boolean;
  configFiles: string[];
  layer: ConfigLayer;
}

/** Every flag `ward-agent agent` accepts, with its kind (`-x=v`, `-x v` and `--x` all work). */
export const AGENT_FLAGS: ReadonlyMap<string, FlagKind> = new Map<string, FlagKind>(
  Object.entries({
    dev: 'bool',
    server: 'bool',
    client: 'bool',
    'acl-enabled': 'bool',
    'acl-agent-token': 'string',
    'enable-debug': 'bool',
    'log-json': 'bool',
    node: 'string',
    region: 'string',
    dc: 'string',
    bind: 'string',
    'data-dir': 'string',
    'log-level': 'log-level',
    'log-format': 'log-format',
    config: 'list',
    join: 'list',
    servers: 'list',
    'bootstrap-expect': 'int',
    'http-port': 'int',
    'rpc-port': 'int',
    'serf-port': 'int',
    'gossip-profile': 'string',
    'gossip-probe-interval': 'duration',
    'gossip-probe-timeout': 'duration',
    'gossip-suspicion-mult': 'int',
    'gossip-interval': 'duration',
    'gossip-push-pull-interval': 'duration',
    'gossip-reconnect-interval': 'duration',
    'heartbeat-interval': 'duration',
    'raft-election-timeout': 'duration',
    'retry-join': 'list',
    'retry-interval': 'duration',
    'retry-max': 'int',
    'raft-heartbeat-interval': 'duration',
    encrypt: 'string',
  }) as Array<[string, FlagKind]>,
);

/** Whether `ward-agent agent` was asked for its help (`-h`, `-help`, `--help`); throws `UsageError` as `parseFlags` does. */
export function isAgentHelp(argv: readonly string[]): boolean {
  return parseGoFlags(argv, AGENT_FLAGS, 'go').isHelp;
}

export function parseFlags(argv: string[]): ParsedFlags {
  const parsed = parseGoFlags(argv, AGENT_FLAGS, 'go');
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument: ${parsed.args[0]}`);
  const v = Object.fromEntries([...parsed.values].map(([k, value]) => [k, asConfigValue(value)]));
  const logLevel = v['log-level'] as LogLevel | undefined;
  const profile = v['gossip-profile'] as string | undefined;
  if (profile !== undefined && !isGossipProfile(profile)) {
    throw new UsageError(`invalid gossip profile ${JSON.stringify(profile)}: want lan or wan`);
  }
  const gossip: Partial<GossipConfig> = {
    probeIntervalMs: v['gossip-probe-interval'] as number | undefined,
    probeTimeoutMs: v['gossip-probe-timeout'] as number | undefined,
    suspicionMult: v['gossip-suspicion-mult'] as number | undefined,
    gossipIntervalMs: v['gossip-interval'] as number | undefined,
    pushPullIntervalMs: v['gossip-push-pull-interval'] as number | undefined,
    reconnectIntervalMs: v['gossip-reconnect-interval'] as number | undefined,
  };
  const layer: ConfigLayer = {
    name: v.node as string | undefined,
    region: v.region as string | undefined,
    datacenter: v.dc as string | undefined,
    bindAddr: v.bind as string | undefined,
    dataDir: v['data-dir'] as string | undefined,
    logLevel,
    // `-log-format=json|standard`, as ward and ward-platform take it, or the established `-log-json`.
    logJson: v['log-format'] === undefined ? (v['log-json'] as boolean | undefined) : v['log-format'] === 'json',
    enableDebug: v['enable-debug'] as boolean | undefined,
    acl: { enabled: v['acl-enabled'] as boolean | undefined, agentToken: v['acl-agent-token'] as string | undefined },
    ports: {
      http: v['http-port'] as number | undefined,
      rpc: v['rpc-port'] as number | undefined,
      serf: v['serf-port'] as number | undefined,
    },
    server: {
      enabled: v.server as boolean | undefined,
      bootstrapExpect: v['bootstrap-expect'] as number | undefined,
    },
    client: { enabled: v.client as boolean | undefined, servers: v.servers as string[] | undefined },
    join: v.join as string[] | undefined,
    retryJoin: {
      addresses: v['retry-join'] as string[] | undefined,
      intervalMs: v['retry-interval'] as number | undefined,
      max: v['retry-max'] as number | undefined,
    },
    gossipProfile: profile,
    gossip,
    raft: {
      electionTimeoutMs: v['raft-election-timeout'] as number | undefined,
      heartbeatIntervalMs: v['raft-heartbeat-interval'] as number | undefined,
    },
    heartbeatIntervalMs: v['heartbeat-interval'] as number | undefined,
    encrypt: v.encrypt as string | undefined,
  };
  return { isDev: v.dev === true, configFiles: (v.config as string[] | undefined) ?? [], layer };
}

/**
 * A flag's value as the config keeps it: durations in milliseconds, and list items split at
 * commas as well (`-join=a,b` is `-join=a -join=b`).
 */
function asConfigValue(value: FlagValue): FlagValue {
  if (typeof value === 'bigint') return durationMs(value);
  return Array.isArray(value) ? splitCommas(value) : value;
}

/** The items of a repeatable flag whose values may also be comma-separated lists. */
export function splitCommas(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',').map((s) => s.trim())).filter(Boolean);
}
