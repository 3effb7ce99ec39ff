/** The agent's ACL: policies, tokens and the capability each endpoint needs, replicated through Raft. @module */
import type { Rules } from './policy.js';

/** The capabilities the agent API checks (spec Part B, "ACL required"). */
export type Capability = 'node:read' | 'node:write' | 'agent:read' | 'agent:write';

/** What a resolved token may do. */
export interface Acl {
  /** ACLs are enabled; when false every check passes except the debug gate. */
  readonly isEnforced: boolean;
  readonly isManagement: boolean;
  readonly rules: Rules;
}

export const ACL_DISABLED: Acl = { isEnforced: false, isManagement: false, rules: {} };

export function allows(acl: Acl, cap: Capability): boolean {
  if (!acl.isEnforced || acl.isManagement) return true;
  const [area, need] = cap.split(':') as ['agent' | 'node', 'read' | 'write'];
  const level = acl.rules[area];
  return level === 'write' || (need === 'read' && level === 'read');
}

/**
 * The debug gate for host data and profiles: management or any agent grant passes;
 * with ACLs off only `enable_debug = true` opens it.
 */
export function allowsAgentDebug(acl: Acl, enableDebug: boolean | undefined): boolean {
  if (!acl.isEnforced) return enableDebug === true;
  return acl.isManagement || acl.rules.agent === 'read' || acl.rules.agent === 'write';
}

/** What a request needs before it may run (route table and RPC methods). */
export type Requirement = Capability | 'none' | 'debug' | 'pprof';

/** Whether `acl` meets `need`: a capability, the debug gate, or (pprof) both agent:write and the gate. */
export function meets(acl: Acl, need: Requirement, enableDebug: boolean | undefined): boolean {
  if (need === 'none') return true;
  if (need === 'debug') return allowsAgentDebug(acl, enableDebug);
  if (need === 'pprof') return allows(acl, 'agent:write') && allowsAgentDebug(acl, enableDebug);
  return allows(acl, need);
}
