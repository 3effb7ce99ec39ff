/** What a server agent knows of the others: server members, peers file, retry-join, the gossip keyring. @module */
import { type AgentConfig, VERSION } from '../config/config.js';
import type { MemberRecord } from '../gossip/messages.js';

/** The tag value that marks a gossip member as a server agent (as in the established tags). */
export const SERVER_ROLE = 'nomad';

/** A server member's RPC address, from its `rpc_addr` and `port` tags. */
export function rpcAddressOf(m: MemberRecord): string {
  const host = m.tags.rpc_addr ?? m.addr;
  return `${host.includes(':') ? `[${host}]` : host}:${m.tags.port ?? '4647'}`;
}

/** Server members of `region`, any status. */
export function regionServers(members: MemberRecord[], region: string): MemberRecord[] {
  return members.filter((m) => m.tags.role === SERVER_ROLE && m.tags.region === region);
}

/** The pool is bootstrapped once `bootstrap_expect` servers have been alive together. */
export function isBootstrapReached(members: MemberRecord[], region: string, bootstrapExpect: number): boolean {
  const alive = regionServers(members, region).filter((m) => m.state === 'alive' || m.state === 'suspect');
  return alive.length >= Math.max(1, bootstrapExpect);
}

/**
 * The Raft voters (`raft.latest_configuration`): every server that has not left. A failed
 * server still counts toward the majority; a member moved to `left` (graceful leave or
 * force-leave) drops out, which is how force-leave "removes the peer".
 */
export function peerSet(members: MemberRecord[], region: string): MemberRecord[] {
  return regionServers(members, region)
    .filter((m) => m.state !== 'left')
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The gossip tags a server advertises: what peers read its region, node ID and RPC address from. */
export function serverTags(
  c: Pick<AgentConfig, 'region' | 'datacenter' | 'server'>,
  self: { nodeId: string; rpcIp: string; rpcPort: number },
): Record<string, string> {
  const tags: Record<string, string> = {
    role: SERVER_ROLE,
    region: c.region,
    dc: c.datacenter,
    build: VERSION,
    revision: '',
    vsn: '1',
    raft_vsn: '3',
    id: self.nodeId,
    rpc_addr: self.rpcIp,
    port: String(self.rpcPort),
  };
  if (c.server.bootstrapExpect === 1) tags.bootstrap = '1';
  if (c.server.bootstrapExpect > 0) tags.expect = String(c.server.bootstrapExpect);
  return tags;
}
