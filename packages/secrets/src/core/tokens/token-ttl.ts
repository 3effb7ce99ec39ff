import { formatDurationSeconds } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';

/** A mount's effective lease settings, in seconds, with the system defaults already substituted. */
export interface MountTtls {
  defaultTtlSeconds: number;
  maxTtlSeconds: number;
}

/** What the TTL of an issue or renewal depends on. All durations in seconds; 0 = not set. */
export interface TtlInput {
  mount: MountTtls;
  nowMs: number;
  /** When the token was created: the max TTL counts from here, never from the last renewal. */
  startMs: number;
  /** TTL asked for by the caller (`ttl` on create, `increment` on renew). */
  requested: number;
  /** TTL the backend or role would give when the caller asks for none. */
  backendTtl: number;
  /** A role's `token_max_ttl`. */
  backendMaxTtl: number;
  explicitMaxTtl: number;
  period: number;
}

export interface TtlResult {
  ttlSeconds: number;
  warnings: string[];
}

/**
 * The established TTL calculation (`CalculateTTL`): the effective max is the smallest of
 * the mount max, the backend max and the explicit max. A periodic token gets its period
 * (capped to that max) and lives past the max unless an explicit max is set; any other
 * token gets the requested TTL, else the backend TTL, else the mount default, capped so
 * that it ends no later than `startMs` + max.
 * Throws `past the max TTL, cannot renew` once that point has passed.
 */
export function calculateTtl(input: TtlInput): TtlResult {
  const warnings: string[] = [];
  let maxTtl = input.mount.maxTtlSeconds;
  if (input.backendMaxTtl > 0 && input.backendMaxTtl < maxTtl) maxTtl = input.backendMaxTtl;
  if (input.explicitMaxTtl > 0 && input.explicitMaxTtl < maxTtl) maxTtl = input.explicitMaxTtl;

  let ttl: number;
  let maxValidMs: number | undefined;
  if (input.period > 0) {
    let period = input.period;
    if (period > maxTtl) {
      warnings.push(
        `period of "${formatDurationSeconds(period)}" exceeded the effective max_ttl of "${formatDurationSeconds(maxTtl)}"; period value is capped accordingly`,
      );
      period = maxTtl;
    }
    ttl = period;
    if (input.explicitMaxTtl > 0) maxValidMs = input.startMs + input.explicitMaxTtl * 1000;
  } else {
    ttl =
      input.requested > 0 ? input.requested : input.backendTtl > 0 ? input.backendTtl : input.mount.defaultTtlSeconds;
    maxValidMs = input.startMs + maxTtl * 1000;
  }

  if (maxValidMs !== undefined) {
    const maxValidTtl = Math.floor((maxValidMs - input.nowMs) / 1000);
    if (maxValidTtl <= 0) throw new InvalidRequestError('past the max TTL, cannot renew');
    if (ttl > maxValidTtl) {
      warnings.push(
        `TTL of "${formatDurationSeconds(ttl)}" exceeded the effective max_ttl of "${formatDurationSeconds(maxValidTtl)}"; TTL value is capped accordingly`,
      );
      ttl = maxValidTtl;
    }
  }
  return { ttlSeconds: ttl, warnings };
}
