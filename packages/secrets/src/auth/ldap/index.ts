export { createLdapAuthBackend } from './backend.js';
