export {
  SEAL_CONFIG_PATH,
  type SealConfig,
  ShamirSeal,
  type ShamirSealOptions,
  UNSEAL_KEYS_PATH,
} from './shamir-seal.js';
export { parseUnsealKey, UnsealProgress } from './unseal-progress.js';
