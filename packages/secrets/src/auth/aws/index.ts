export { type AwsAuthBackend, createAwsAuthBackend } from './backend.js';
