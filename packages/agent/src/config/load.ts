import { hostname } from 'node:os';
import { parseGossipKey } from '../gossip/keyring.js';
import { type AgentConfig, defaultConfig, devLayer, mergeConfig } from './config.js';
import { ConfigError } from './errors.js';
import { parseFlags } from './flags.js';
import { readConfigFile } from './hcl-file.js';

/** Builds the effective config: defaults, then -dev, then each -config file, then the other flags. */
export async function loadConfig(argv: string[]): Promise<AgentConfig & { warnings: string[] }> {
  const flags = parseFlags(argv);
  const files = await Promise.all(flags.configFiles.map(readConfigFile));
  const layers = files.map(({ warnings: _, ...layer }) => layer);
  const config = mergeConfig(defaultConfig(hostname()), ...(flags.isDev ? [devLayer()] : []), ...layers, flags.layer);
  validate(config);
  return { ...config, warnings: files.flatMap((f) => f.warnings) };
}

function validate(c: AgentConfig): void {
  if (!c.server.enabled && !c.client.enabled) {
    throw new ConfigError('must specify either server, client or dev mode for the agent');
  }
  if (!c.name) throw new ConfigError('node name must not be empty');
  if (c.gossip.probeTimeoutMs >= c.gossip.probeIntervalMs) {
    throw new ConfigError('gossip probe timeout must be shorter than the probe interval');
  }
  // A leader must be heard from several times per election timeout, or followers revolt.
  if (c.raft.heartbeatIntervalMs * 2 > c.raft.electionTimeoutMs || c.raft.heartbeatIntervalMs <= 0) {
    throw new ConfigError('raft heartbeat interval must be positive and at most half the election timeout');
  }
  if (c.encrypt !== '') {
    try {
      parseGossipKey(c.encrypt);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  const t = c.tls;
  if (t.rpc && (!t.caFile || !t.certFile || !t.keyFile)) {
    throw new ConfigError('tls.rpc needs ca_file, cert_file and key_file');
  }
  if (t.verifyServerHostname && !t.rpc) throw new ConfigError('tls.verify_server_hostname needs tls.rpc = true');
}
