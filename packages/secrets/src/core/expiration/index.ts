/** Leases: one timer for all (a min-heap), persisted behind the barrier, revoked at expiry with retries. @module */
export { ExpirationManager } from './expiration-manager.js';
export { type LeaseEntry, type LeaseKind, remainingTtlSeconds } from './lease.js';
export { renewRefusal } from './renewal.js';
export type {
  ExpirationManagerOptions,
  LeaseRevoker,
  RegisterLeaseOptions,
  RenewResult,
  RevokeOptions,
} from './types.js';
