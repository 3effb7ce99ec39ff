import type { Operation } from '../../logical/request.js';

/** A capability a policy can grant on a path. */
export type Capability = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'sudo' | 'deny';

/**
 * Capabilities as bits, so merging the rules of many policies is an OR and a check is an AND:
 * the per-request cost stays independent of how many policies a token carries.
 */
export const CAPABILITY_BITS: Readonly<Record<Capability, number>> = {
  deny: 1,
  create: 2,
  read: 4,
  update: 8,
  delete: 16,
  list: 32,
  sudo: 64,
  patch: 128,
};

export const DENY = CAPABILITY_BITS.deny;
export const SUDO = CAPABILITY_BITS.sudo;

/** Type guard for text read from a policy document. */
export function isCapability(name: string): name is Capability {
  return Object.hasOwn(CAPABILITY_BITS, name);
}

/**
 * The capability an operation needs. Help needs none (it is always allowed for a valid
 * token), hence `0`. Renew, revoke and rollback are not operations here; the established
 * servers map them to `update`, which is what callers asking about them should pass.
 */
export function capabilityBitFor(operation: Operation): number {
  return operation === 'help' ? 0 : CAPABILITY_BITS[operation];
}

/** Capability names of a bitmap, sorted, `['deny']` for deny or nothing (as `sys/capabilities` reports them). */
export function capabilityNames(bits: number): Capability[] {
  if (bits & DENY || bits === 0) return ['deny'];
  return (Object.keys(CAPABILITY_BITS) as Capability[]).filter((c) => bits & CAPABILITY_BITS[c]).sort();
}
