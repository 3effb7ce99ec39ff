import type { KeyObject } from 'node:crypto';
import type { SignatureScheme } from '../../framework/index.js';

export { digestOf, HASH_ALGORITHMS, type HashAlgorithm, verifySignature } from '../../framework/index.js';

export type SignOptions = SignatureScheme;

/**
 * One key held in an HSM or a cloud key service. Ward never sees the private half: every
 * provider (`pkcs11.ts`, `aws-kms.ts`, …) signs remotely and hands back standard signatures,
 * so one verifier (`verifySignature`) serves them all.
 *
 * Errors: `InvalidRequestError` for what the key or service cannot do (PSS on an EC key, a hash
 * the service refuses), `UpstreamError` carrying the service's message for every failure of the
 * HSM or service itself (wrong PIN, unreachable endpoint, key missing and generation not allowed).
 */
export interface ManagedKeyBackend {
  /**
   * Signs `digest`, the hash of a message under `options.hash`. RSA signatures are PKCS#1
   * bytes; ECDSA signatures are DER (X9.62), whatever the service returns natively. When the
   * key does not exist and the managed key allows generation, it is generated first.
   */
  sign(digest: Buffer, options: SignOptions): Promise<Buffer>;
  /** The public half of the key (generated first when missing and allowed). */
  publicKey(): Promise<KeyObject>;
  /** Releases sessions and connections; the backend is not used afterwards. */
  close(): Promise<void>;
}

/** `r‖s` (PKCS#11 CKM_ECDSA output) as a DER `ECDSA-Sig-Value`. */
export function ecdsaRawToDer(raw: Uint8Array): Buffer {
  const half = raw.length / 2;
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    let body = Buffer.from(bytes.subarray(start));
    if ((body[0] ?? 0) & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
    return Buffer.concat([Buffer.from([0x02]), derLength(body.length), body]);
  };
  const seq = Buffer.concat([integer(raw.subarray(0, half)), integer(raw.subarray(half))]);
  return Buffer.concat([Buffer.from([0x30]), derLength(seq.length), seq]);
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  if (n < 0x100) return Buffer.from([0x81, n]);
  return Buffer.from([0x82, n >> 8, n & 0xff]);
}
