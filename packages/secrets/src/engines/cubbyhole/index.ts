export { createCubbyholeBackend } from './backend.js';
