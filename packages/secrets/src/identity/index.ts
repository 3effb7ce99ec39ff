/** The `identity/` backend of every namespace: entities, aliases, groups, lookups and identity tokens (OIDC provider). @module */
export { createIdentityBackend, type IdentityBackendDeps } from './backend.js';
