/** The `aws` engine: IAM users under a lease (deleted at revocation) and STS credentials (assumed roles, federation and session tokens). @module */
export { createAwsBackend } from './backend.js';
