/** The token store's paths (`auth/token/`), built into every namespace. @module */
export { createTokenBackend, TOKEN_SPECIAL_PATHS } from './backend.js';
export type { TokenBackendOptions, TokenRequest } from './deps.js';
