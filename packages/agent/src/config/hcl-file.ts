import { readFile } from 'node:fs/promises';
import { HclSyntaxError, LOG_LEVELS, type LogLevel, parseHcl } from '@ward/base';
import { type GossipConfig, isGossipProfile } from '../gossip/config.js';
import type { RaftTimings } from '../raft/raft-node.js';
import { checkConfigKeys } from './check-keys.js';
import type { AgentConfig, ConfigLayer, TlsConfig } from './config.js';
import { parseDurationMs } from './duration.js';
import { ConfigError } from './errors.js';

type Obj = Record<string, unknown>;

/** A config file's settings, and what in it Ward accepts without acting on (`file:line: …` each). */
export type FileLayer = ConfigLayer & { warnings: string[] };

/** Reads an agent config file in the established HCL1 (or JSON) layout. */
export async function readConfigFile(path: string): Promise<FileLayer> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  return parseConfigText(path, text);
}

/**
 * Parses a config file. Unknown keys are refused all at once, each with its line and the
 * nearest known key; established keys Ward does not act on come back as `warnings`.
 */
export async function parseConfigText(fileName: string, text: string): Promise<FileLayer> {
  let parsed: ReturnType<typeof parseHcl>;
  try {
    parsed = parseHcl(text);
  } catch (err) {
    if (!(err instanceof HclSyntaxError)) throw err;
    throw new ConfigError(`cannot parse ${fileName}: ${err.message}`);
  }
  const doc: Obj = parsed.body;
  const keys = checkConfigKeys(fileName, parsed);
  if (keys.errors.length > 0) throw new ConfigError(keys.errors.join('\n'));
  const r = new Reader(fileName, doc);
  const server = r.block('server');
  const client = r.block('client');
  const ports = r.block('ports');
  const logLevel = r.str(doc, 'log_level')?.toLowerCase();
  const profile = r.str(doc, 'gossip_profile');
  if (profile !== undefined && !isGossipProfile(profile)) {
    throw new ConfigError(`${fileName}: gossip_profile must be "lan" or "wan"`);
  }
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError(`${fileName}: unknown log_level ${JSON.stringify(logLevel)}`);
  }
  return {
    name: r.str(doc, 'name'),
    region: r.str(doc, 'region'),
    datacenter: r.str(doc, 'datacenter'),
    dataDir: r.str(doc, 'data_dir'),
    bindAddr: r.str(doc, 'bind_addr'),
    ports: { http: r.num(ports, 'http'), rpc: r.num(ports, 'rpc'), serf: r.num(ports, 'serf') },
    server: { enabled: r.bool(server, 'enabled'), bootstrapExpect: r.num(server, 'bootstrap_expect') },
    client: { enabled: r.bool(client, 'enabled'), servers: r.strs(client, 'servers') },
    acl: { enabled: r.bool(r.block('acl'), 'enabled'), agentToken: r.str(r.block('acl'), 'agent_token') },
    enableDebug: r.bool(doc, 'enable_debug'),
    logLevel: logLevel as LogLevel | undefined,
    logJson: r.bool(doc, 'log_json'),
    join: r.strs(server, 'start_join'),
    retryJoin: retryJoinLayer(r, server),
    gossipProfile: profile,
    gossip: gossipLayer(r, r.block('gossip')),
    raft: raftLayer(r.block('raft')),
    encrypt: r.str(server, 'encrypt'),
    tls: tlsLayer(r, r.block('tls')),
    warnings: keys.warnings,
  };
}

/** The established `tls { rpc, verify_server_hostname, ca_file, cert_file, key_file }` block. */
function tlsLayer(r: Reader, t: Obj): Partial<TlsConfig> {
  return {
    rpc: r.bool(t, 'rpc'),
    verifyServerHostname: r.bool(t, 'verify_server_hostname'),
    caFile: r.str(t, 'ca_file'),
    certFile: r.str(t, 'cert_file'),
    keyFile: r.str(t, 'key_file'),
  };
}

/** Ward's own `gossip { … }` block: protocol timings, so tests and small clusters can go faster. */
function gossipLayer(r: Reader, g: Obj): Partial<GossipConfig> {
  const dur = (k: string) => {
    const v = g[k];
    return v === undefined ? undefined : parseDurationMs(v as string | number, `gossip.${k}`);
  };
  return {
    probeIntervalMs: dur('probe_interval'),
    probeTimeoutMs: dur('probe_timeout'),
    suspicionMult: r.num(g, 'suspicion_mult'),
    gossipIntervalMs: dur('gossip_interval'),
    pushPullIntervalMs: dur('push_pull_interval'),
    reconnectIntervalMs: dur('reconnect_interval'),
    reconnectTimeoutMs: dur('reconnect_timeout'),
    tombstoneTimeoutMs: dur('tombstone_timeout'),
  };
}

/**
 * `server { server_join { retry_join, retry_interval, retry_max } }`, or the same keys
 * directly in `server` (the older layout).
 */
function retryJoinLayer(r: Reader, server: Obj): Partial<AgentConfig['retryJoin']> {
  const nested = server.server_join;
  const sj = nested === undefined ? server : ((Array.isArray(nested) ? nested[0] : nested) as Obj);
  const interval = sj.retry_interval;
  return {
    addresses: r.strs(sj, 'retry_join'),
    intervalMs: interval === undefined ? undefined : parseDurationMs(interval as string, 'retry_interval'),
    max: r.num(sj, 'retry_max'),
  };
}

/** Ward's own `raft { election_timeout, heartbeat_interval }` block. */
function raftLayer(g: Obj): Partial<RaftTimings> {
  const dur = (k: string) => {
    const v = g[k];
    return v === undefined ? undefined : parseDurationMs(v as string | number, `raft.${k}`);
  };
  return { electionTimeoutMs: dur('election_timeout'), heartbeatIntervalMs: dur('heartbeat_interval') };
}

/** Typed access to a parsed file, where every unlabelled block is a list of bodies. */
class Reader {
  constructor(
    private readonly file: string,
    private readonly doc: Obj,
  ) {}

  block(name: string): Obj {
    const v = this.doc[name];
    if (v === undefined) return {};
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first !== 'object' || first === null) throw new ConfigError(`${this.file}: ${name} must be a block`);
    return first as Obj;
  }

  str(o: Obj, k: string): string | undefined {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new ConfigError(`${this.file}: ${k} must be a string`);
    return v;
  }

  num(o: Obj, k: string): number | undefined {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      throw new ConfigError(`${this.file}: ${k} must be a non-negative integer`);
    }
    return v;
  }

  bool(o: Obj, k: string): boolean | undefined {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw new ConfigError(`${this.file}: ${k} must be true or false`);
    return v;
  }

  strs(o: Obj, k: string): string[] | undefined {
    const v = o[k];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
      throw new ConfigError(`${this.file}: ${k} must be a list of strings`);
    }
    return v as string[];
  }
}
