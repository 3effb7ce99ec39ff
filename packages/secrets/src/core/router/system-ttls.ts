/** The system-wide lease TTLs (`default_lease_ttl`, `max_lease_ttl`): used wherever a mount sets 0. */
export interface SystemTtls {
  defaultLeaseTtlSeconds: number;
  maxLeaseTtlSeconds: number;
}

/** The established defaults: 768h each. */
export const ESTABLISHED_SYSTEM_TTLS: SystemTtls = { defaultLeaseTtlSeconds: 2_764_800, maxLeaseTtlSeconds: 2_764_800 };

/**
 * A mount's effective TTLs: its own where set, the system's otherwise; a default that is not the
 * mount's own is capped by the effective max.
 */
export function mountTtls(
  config: { default_lease_ttl: number; max_lease_ttl: number },
  system: SystemTtls,
): { defaultTtlSeconds: number; maxTtlSeconds: number } {
  const maxTtlSeconds = config.max_lease_ttl || system.maxLeaseTtlSeconds;
  return {
    defaultTtlSeconds: Math.min(config.default_lease_ttl || system.defaultLeaseTtlSeconds, maxTtlSeconds),
    maxTtlSeconds,
  };
}
