/** Tokens: service and batch tokens stored as digests, roles, bound CIDRs, the tokens logins issue. @module */
export { authResponse } from './auth-response.js';
export { BATCH_TOKEN_PREFIX } from './batch-tokens.js';
export { areCidrsWithin, isAddressInCidrs, parseCidrs } from './bound-cidrs.js';
export { equivalentPolicies, type LoginContext } from './login-token.js';
export { sanitizePolicies } from './policy-names.js';
export type { CreateContext, CreateTokenRequest } from './token-create.js';
export { type TokenEntry, type TokenType, tokenLeaseId } from './token-entry.js';
export { defaultRole, RoleStore, type RoleTokenType, type TokenRole } from './token-roles.js';
export {
  type IssuedToken,
  type LookupOptions,
  SERVICE_TOKEN_PREFIX,
  TokenStore,
  type TokenStoreHooks,
  type TokenUse,
} from './token-store.js';
export type { MountTtls } from './token-ttl.js';
export { isWrappingToken } from './wrapping-token.js';
