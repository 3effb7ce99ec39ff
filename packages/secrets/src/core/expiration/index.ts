export { ExpirationManager } from './expiration-manager.js';
export { type LeaseEntry, type LeaseKind, REVOKE_ERROR_MAX_CHARS, remainingTtlSeconds } from './lease.js';
export { MAX_REVOKE_ATTEMPTS, REVOKE_RETRY_BASE_MS, renewRefusal } from './renewal.js';
export type {
  ExpirationManagerOptions,
  LeaseRevoker,
  RegisterLeaseOptions,
  RenewResult,
  RevokeOptions,
} from './types.js';
