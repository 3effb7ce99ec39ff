import type { Random } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LeaseEntry } from './lease.js';

/** Failed automatic revocations before a lease is marked irrevocable. */
export const MAX_REVOKE_ATTEMPTS = 6;
/** First retry delay; each further failure doubles it. */
export const REVOKE_RETRY_BASE_MS = 10_000;

/**
 * Delay before the next revocation attempt after `failedAttempts` failures (1-based):
 * 10 s × 2^(failedAttempts-1), times a jitter factor in [0.5, 1.5) so leases that failed
 * together (a backend that was down) do not all retry in the same instant.
 */
export function revokeRetryDelayMs(failedAttempts: number, random: Random): number {
  const bytes = random.bytes(4);
  const fraction = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) / 2 ** 32;
  return Math.round(REVOKE_RETRY_BASE_MS * 2 ** (failedAttempts - 1) * (0.5 + fraction));
}

/** Why `entry` cannot be renewed at `nowMs`, in the established wording; `undefined` when it can. */
export function renewRefusal(entry: LeaseEntry, nowMs: number): string | undefined {
  if (entry.irrevocable) return 'lease is expired and has failed previous revocation attempts';
  if (entry.expire_time_ms === 0) return 'lease is not renewable';
  // Once a revocation attempt has run, the lease is on its way out even if that attempt failed.
  if (entry.expire_time_ms <= nowMs || entry.revoke_attempts > 0) return 'lease expired';
  if (!entry.renewable) return 'lease is not renewable';
  return undefined;
}

/** The TTL the lease had at its last issue or renewal: what a renewal without increment asks for again. */
export function previousTtlSeconds(entry: LeaseEntry): number {
  const from = entry.last_renewal_ms || entry.issue_time_ms;
  return Math.max(0, Math.round((entry.expire_time_ms - from) / 1000));
}

/** A requested TTL cut to what the lease's max TTL still allows, as `CalculateTTL` does. */
export function capTtl(
  entry: LeaseEntry,
  requestedSeconds: number,
  nowMs: number,
): { ttlSeconds: number; maxValidSeconds: number; capped: boolean } {
  if (entry.max_expire_time_ms === 0) return { ttlSeconds: requestedSeconds, maxValidSeconds: 0, capped: false };
  const maxValidSeconds = Math.floor((entry.max_expire_time_ms - nowMs) / 1000);
  if (maxValidSeconds <= 0) throw new InvalidRequestError('past the max TTL, cannot renew');
  if (requestedSeconds > maxValidSeconds) return { ttlSeconds: maxValidSeconds, maxValidSeconds, capped: true };
  return { ttlSeconds: requestedSeconds, maxValidSeconds, capped: false };
}
