export { createIdentityBackend, type IdentityBackendDeps } from './backend.js';
