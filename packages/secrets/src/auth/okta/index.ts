export { createOktaBackend, type OktaBackend, oktaBackendFactory } from './backend.js';
