export { createCertBackend } from './backend.js';
