/** The barrier: every stored value encrypted with AES-256-GCM under a keyring, and the decrypted-value cache. @module */
export {
  AesGcmBarrier,
  type AesGcmBarrierOptions,
  type BarrierHaRole,
  type KeyStatus,
} from './aes-gcm-barrier.js';
export { decryptEntry, encryptEntry } from './entry-format.js';
export { Keyring, type KeyTerm } from './keyring.js';
export { ReadOnlyStorageError } from './read-only-error.js';
export { KEYRING_PATH, ROOT_KEY_PATH } from './stored-keyring.js';
export { createView } from './view.js';
