export { PasswordPolicyStore, passwordPolicyPrefix } from './password-policy-store.js';
