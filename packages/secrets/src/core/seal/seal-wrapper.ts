/**
 * A key held outside the server (an HSM, a cloud KMS, another server's transit engine) that an
 * auto seal uses to wrap the root key and the recovery key. The core never sees the key: it
 * hands a wrapper a 32-byte data key and stores what comes back (see `wrapped-entry.ts`).
 * Wrappers are built at the composition root from the `seal` stanzas (`sys/kms/seals/`).
 *
 * Errors: an `UpstreamError` carrying the service's message for every failure of the service
 * (unreachable, denied, key missing and not to be generated, wrong ciphertext).
 */
export interface SealWrapper {
  /** The stanza's name as configured (`pkcs11`, `transit`, `awskms`, `alphakms`, …): `sys/seal-status` reports it. */
  readonly type: string;
  /**
   * The type stored in `core/seal-config`: the spec's name of the provider whatever alias the
   * stanza used (`alphakms` for `awskms`), so renaming a stanza to its alias is no seal migration.
   */
  readonly storedType: string;
  /** Encrypts `plaintext` (a data key) with the current key; the result names that key. */
  wrap(plaintext: Uint8Array): Promise<WrappedKey>;
  /** Decrypts what `wrap` returned, with the key (version) it names; an old version must still work. */
  unwrap(wrapped: WrappedKey): Promise<Uint8Array>;
  /** Which key (version) `wrap` uses now: an entry wrapped under another is re-wrapped after unseal. */
  currentKeyId(): Promise<string>;
  /** Releases sessions and connections; the wrapper is not used afterwards. */
  close(): Promise<void>;
}

/**
 * What a wrapper returned: the key (version) it used, the ciphertext, and any parameters of
 * its own (an IV, a mechanism), all strings so the entry stays plain JSON.
 */
export interface WrappedKey {
  keyId: string;
  /** Base64. */
  ciphertext: string;
  params?: Record<string, string>;
}
