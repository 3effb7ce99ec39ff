/** How a backend is declared: `definePath`, typed fields, `createBackend` (secret types, periodic tasks), help, OpenAPI. @module */
export {
  type Backend,
  type BackendContext,
  type BackendSpec,
  createBackend,
  type ManagedKeyRef,
  type ManagedKeySigner,
  type PathMatch,
  type PeriodicTask,
  type SpecialPaths,
  type SystemView,
} from './backend.js';
export { decodeIfBase64 } from './base64-text.js';
export { areCidrsWithin, isAddressInCidrs, parseCidrs } from './bound-cidrs.js';
export { checkTtls, parseDurationSeconds } from './duration.js';
export { type FieldSpec, type Fields, type FieldValues, field, withoutSensitive } from './fields.js';
export { KeyedMutex } from './keyed-mutex.js';
export { listPath } from './list-path.js';
export {
  definePath,
  type ExistenceContext,
  type HandlerContext,
  type PathDefinition,
  type PathOperation,
  type PathSpec,
} from './path.js';
export { equivalentPolicies, sanitizePolicies } from './policy-names.js';
export type { SecretCall, SecretType, StoredSecret } from './secrets.js';
export {
  digestOf,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  nodeHashName,
  type SignatureScheme,
  verifySignature,
} from './signatures.js';
export { hashAlgorithmOf, pathHash, pathRandom } from './utility-paths.js';
export { writeOperation } from './write-operation.js';
