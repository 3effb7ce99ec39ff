import type { Random } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import { rsaDecrypt, rsaEncrypt } from './asymmetric.js';
import { privateKeyOf, publicKeyOf } from './key-objects.js';
import { decryptionVersion, encryptionVersion, type HeldTransitKey, versionOf } from './key-store.js';
import { specOf } from './key-types.js';
import { open, operationKeys, seal } from './symmetric.js';
import { formatVaultText, parseVaultText, payloadBytes } from './wire.js';

/** What one encryption takes besides the key. */
export interface EncryptInput {
  plaintext: Buffer;
  /** Derived keys: the derivation context. */
  context?: Buffer;
  /** AEAD keys: data authenticated with the ciphertext but not in it. */
  aad?: Buffer;
  /** 0: the latest version. */
  keyVersion: number;
  /** Given by the caller: refused, as established for every key this engine creates. */
  nonce?: Buffer;
}

function refuseUnsupported(entry: HeldTransitKey): 'aead' | 'rsa' {
  const { kind } = specOf(entry.type);
  if (kind !== 'aead' && kind !== 'rsa')
    throw new InvalidRequestError(`message encryption not supported for key type ${entry.type}`);
  return kind;
}

/** `vault:v<n>:<base64>` of `input.plaintext`, and the version used. */
export function encryptWith(entry: HeldTransitKey, input: EncryptInput, random: Random) {
  const kind = refuseUnsupported(entry);
  if (input.nonce && input.nonce.length > 0) throw new InvalidRequestError('nonce provided when not allowed');
  const version = encryptionVersion(entry, input.keyVersion);
  const payload =
    kind === 'rsa'
      ? rsaEncrypt(publicKeyOf(versionOf(entry, version)), input.plaintext)
      : seal(entry.type, operationKeys(entry, version, input.context), input.plaintext, random, input.aad);
  return { ciphertext: formatVaultText(version, payload.toString('base64')), key_version: version };
}

/** The plaintext of a `vault:v<n>:` ciphertext made with `entry`. */
export function decryptWith(
  entry: HeldTransitKey,
  ciphertext: string,
  o: { context?: Buffer; aad?: Buffer },
): { plaintext: Buffer; version: number } {
  const kind = refuseUnsupported(entry);
  const { version, payload } = parseVaultText(ciphertext);
  const stored = decryptionVersion(entry, version);
  const bytes = payloadBytes(payload);
  const plaintext =
    kind === 'rsa'
      ? rsaDecrypt(privateKeyOf(stored), bytes)
      : open(entry.type, operationKeys(entry, version, o.context), bytes, o.aad);
  return { plaintext, version };
}
