export { createGcpBackend } from './backend.js';
