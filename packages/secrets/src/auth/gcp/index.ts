export { createGcpBackend, type GcpBackend } from './backend.js';
