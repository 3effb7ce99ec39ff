/** Seals: Shamir shares and auto seals, recovery keys, the steps of an unseal (and a seal migration), rekey and root-token generation. @module */
export {
  RekeyOperation,
  type RekeyResult,
  type RekeyStatus,
  type RekeyVerifyStatus,
} from './rekey-operation.js';
export {
  encodeRootToken,
  RootGeneration,
  type RootGenerationStatus,
} from './root-generation.js';
export { SealKeys, type SealSetup } from './seal-keys.js';
export type { Migration, RotateRootKey } from './seal-migration.js';
export type { SealWrapper, WrappedKey } from './seal-wrapper.js';
export {
  SEAL_CONFIG_PATH,
  type SealConfig,
  ShamirSeal,
  type ShamirSealOptions,
  UNSEAL_KEYS_PATH,
} from './shamir-seal.js';
export { parseUnsealKey, UnsealProgress } from './unseal-progress.js';
export {
  autoUnseal,
  openBarrier,
  sealStatusOf,
  submitUnsealShare,
  type UnsealingBarrier,
  type UnsealingCore,
} from './unseal-steps.js';
