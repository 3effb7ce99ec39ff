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

/** Alive servers of `region`, by name. */
function aliveServers(members: MemberRecord[], region: string): MemberRecord[] {
  return regionServers(members, region)
    .filter((m) => m.state === 'alive' || m.state === 'suspect')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The pool is bootstrapped once `bootstrap_expect` servers have been alive together. */
export function isBootstrapReached(members: MemberRecord[], region: string, bootstrapExpect: number): boolean {
  return aliveServers(members, region).length >= Math.max(1, bootstrapExpect);
}

/**
 * Ward has no consensus log. The leader is a pure function of the gossip view, with
 * Raft's rules of thumb: none before bootstrap, none without a majority of the peer set
 * alive (so at most one side of a partition has one), and then the alive server with
 * the smallest name. Views converge through gossip, so all servers soon agree. The
 * leader serialises ACL writes; health and `stats.raft` report it.
 */
export function chooseLeader(
  members: MemberRecord[],
  region: string,
  isBootstrapped: boolean,
): MemberRecord | undefined {
  if (!isBootstrapped) return undefined;
  const alive = aliveServers(members, region);
  const peers = peerSet(members, region);
  return alive.length * 2 > peers.length ? alive[0] : undefined;
}

/**
 * The server peer set reported as `raft.latest_configuration`: every server that has not
 * left. A member moved to `left` (graceful leave or force-leave) drops out, which is how
 * force-leave "removes the peer".
 */
export function peerSet(members: MemberRecord[], region: string): MemberRecord[] {
  return regionServers(members, region)
    .filter((m) => m.state !== 'left')
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
