import { VERSION } from './config/config.js';
import { toApiMember, ZERO_MEMBER } from './members.js';
import type { AgentServices } from './services.js';
import { type Stats, type StatsView, stats } from './stats.js';

type SelfView = StatsView & Pick<AgentServices, 'advertiseIp' | 'httpPort' | 'rpcPort'>;

/** GET /v1/agent/self: `config`, `member` and `stats`. */
export function selfResponse(agent: SelfView): { config: unknown; member: unknown; stats: Stats } {
  const self = agent.gossip?.self();
  return { config: configView(agent), member: self ? toApiMember(self) : ZERO_MEMBER, stats: stats(agent) };
}

/** The effective configuration under the established Go field names. */
function configView(agent: SelfView): Record<string, unknown> {
  const c = agent.config;
  const ip = agent.advertiseIp;
  const serf = agent.gossip?.local.port ?? c.ports.serf;
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
      GossipProfile: c.gossipProfile,
      ProbeIntervalMs: c.gossip.probeIntervalMs,
      ProbeTimeoutMs: c.gossip.probeTimeoutMs,
      SuspicionMult: c.gossip.suspicionMult,
      // Shown only as set or not, as the established agent does.
      EncryptKey: c.encrypt ? '<redacted>' : '',
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
    TLSConfig: {
      EnableHTTP: false,
      EnableRPC: c.tls.rpc,
      VerifyServerHostname: c.tls.verifyServerHostname,
      CAFile: c.tls.caFile,
      CertFile: c.tls.certFile,
      KeyFile: c.tls.keyFile,
    },
    DevMode: c.devMode,
    Revision: '',
    Version: VERSION,
    VersionPrerelease: '',
  };
}
