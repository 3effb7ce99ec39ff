export { createAwsBackend } from './backend.js';
