export { createTokenBackend, TOKEN_SPECIAL_PATHS } from './backend.js';
export type { TokenBackendOptions, TokenRequest } from './deps.js';
