/** The identity store: entities, aliases and groups, behind the barrier. @module */
export { type EntityGroups, IdentityStore, type IdentityStoreDeps } from './identity-store.js';
export type { AliasRecord, EntityRecord, GroupAliasRecord, GroupRecord, MfaSecret, TotpMethod } from './records.js';
export { templateFacts } from './template-facts.js';
