import type { MemberRecord } from './gossip/messages.js';
import type { AgentServices } from './services.js';

/** A member as the API shows it (spec Part B "member"). */
export interface ApiMember {
  Name: string;
  Addr: string;
  Port: number;
  Tags: Record<string, string> | null;
  Status: string;
  ProtocolMin: number;
  ProtocolMax: number;
  ProtocolCur: number;
  DelegateMin: number;
  DelegateMax: number;
  DelegateCur: number;
}

/** Serf's status for a gossip state: a suspect is still alive; dead without a leave is failed. */
export function apiStatus(m: MemberRecord): string {
  if (m.state === 'dead') return 'failed';
  if (m.state === 'left') return 'left';
  return m.leaving ? 'leaving' : 'alive';
}

export function toApiMember(m: MemberRecord): ApiMember {
  return {
    Name: m.name,
    Addr: m.addr,
    Port: m.port,
    Tags: { ...m.tags },
    Status: apiStatus(m),
    // The protocol versions of the established implementation, so its clients accept ours.
    ProtocolMin: 1,
    ProtocolMax: 5,
    ProtocolCur: 2,
    DelegateMin: 2,
    DelegateMax: 5,
    DelegateCur: 4,
  };
}

/** The zero member a client-only agent reports as `member` in `/agent/self`. */
export const ZERO_MEMBER: ApiMember = {
  Name: '',
  Addr: '',
  Port: 0,
  Tags: null,
  Status: 'none',
  ProtocolMin: 0,
  ProtocolMax: 0,
  ProtocolCur: 0,
  DelegateMin: 0,
  DelegateMax: 0,
  DelegateCur: 0,
};

export interface MembersResponse {
  ServerName: string;
  ServerRegion: string;
  ServerDC: string;
  Members: ApiMember[];
}

/** This server's view of the pool, sorted by name. */
export function localMembers(agent: Pick<AgentServices, 'config' | 'gossip'>): MembersResponse {
  const members = agent.gossip?.members() ?? [];
  return {
    ServerName: agent.config.name,
    ServerRegion: agent.config.region,
    ServerDC: agent.config.datacenter,
    Members: members.sort((a, b) => (a.name < b.name ? -1 : 1)).map(toApiMember),
  };
}
