export { createGcpSecretsBackend } from './backend.js';
