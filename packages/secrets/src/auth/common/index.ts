/** What the auth methods share: lockout, `token_*` fields, role list/read/delete paths, user and group policy mappings, mount options, bounded reads of third-party answers, globs. @module */
export { DEFAULT_LOCKOUT, Lockout, lockoutFromOptions } from './lockout.js';
export {
  type MappingKind,
  type MappingPathsOptions,
  type MappingRecords,
  mappingPaths,
  type PolicyMapping,
} from './mapping-paths.js';
export { optionInt } from './mount-options.js';
export { type RoleRecords, roleListPaths, roleReadDelete } from './role-paths.js';
export {
  applyTokenFields,
  EMPTY_TOKEN_PARAMS,
  renewalUnder,
  type TokenParams,
  tokenFields,
  tokenGrant,
  tokenReadData,
} from './token-fields.js';
