export { createKubernetesBackend } from './backend.js';
