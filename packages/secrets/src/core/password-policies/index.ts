/** Password policies (`sys/policies/password`): stored rules and the generator. @module */
export { PasswordPolicyStore, passwordPolicyPrefix } from './password-policy-store.js';
