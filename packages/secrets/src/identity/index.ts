export { createIdentityBackend, type IdentityBackendDeps } from './backend.js';
export { IdentityStore } from './identity-store.js';
export type { EntityRecord } from './records.js';
