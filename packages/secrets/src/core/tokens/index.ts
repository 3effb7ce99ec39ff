/** Tokens: service and batch tokens stored as digests, roles, the tokens logins issue (CIDR and policy-name helpers are framework's). @module */
export { authResponse } from './auth-response.js';
export { BATCH_TOKEN_PREFIX } from './batch-tokens.js';
export type { LoginContext } from './login-token.js';
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
