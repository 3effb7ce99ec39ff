/** The `aws` auth method: iam logins (a signed sts:GetCallerIdentity request forwarded to STS) and ec2 logins (the PKCS#7 signed instance identity document). @module */
export { createAwsAuthBackend } from './backend.js';
