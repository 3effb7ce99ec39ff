import { createPublicKey, type KeyObject, webcrypto } from 'node:crypto';
import { randomUuid } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { cryptoKeyPair, describeKey, parsePrivateKey, spkiOf } from './keys.js';
import { ManagedSigningKey, managedKeyOf } from './managed-keys.js';
import { type KeyRecord, pkiStore } from './pki-store.js';

/** Whether the key lives in an HSM or key service (a `kms` CA key). */
export function isManagedRecord(key: KeyRecord): boolean {
  return Boolean(key.managed_key_id);
}

/** The public half of a stored key (a managed key keeps its public key beside its id). */
export function publicKeyOfRecord(key: KeyRecord): KeyObject {
  if (isManagedRecord(key)) return createPublicKey(key.public_key ?? '');
  return createPublicKey(parsePrivateKey(key.private_key));
}

/**
 * The pair @peculiar/x509's generators sign with: WebCrypto keys for a key held here, or for a
 * managed key a stand-in whose signatures the HSM or key service makes.
 */
export async function keyPairOfRecord(
  d: PkiDeps,
  key: KeyRecord,
  algorithm: { name: string; hash?: string; namedCurve?: string },
): Promise<{ privateKey: CryptoKey | ManagedSigningKey; publicKey: CryptoKey }> {
  if (!isManagedRecord(key)) return cryptoKeyPair(key.private_key, algorithm);
  const { signer } = await managedKeyOf(d.managedKey, { managed_key_id: key.managed_key_id });
  const importAlgorithm =
    algorithm.name === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: algorithm.namedCurve }
      : { name: algorithm.name, hash: algorithm.hash };
  const publicKey = await webcrypto.subtle.importKey('spki', spkiOf(publicKeyOfRecord(key)), importAlgorithm, true, [
    'verify',
  ]);
  return { privateKey: new ManagedSigningKey(signer, algorithm), publicKey: publicKey as unknown as CryptoKey };
}

/**
 * A managed key as a key of the mount (`kms`), or the key already stored for the same managed key;
 * the first key becomes the default, as with any other key.
 */
export async function importManagedKey(
  d: PkiDeps,
  storage: Storage,
  data: { managed_key_name?: string; managed_key_id?: string; key_name?: string },
): Promise<KeyRecord> {
  const { signer, publicKey } = await managedKeyOf(d.managedKey, data);
  if (publicKey.asymmetricKeyType !== 'rsa' && publicKey.asymmetricKeyType !== 'ec')
    throw new InvalidRequestError(`managed key ${signer.name} is neither RSA nor EC`);
  for (const id of await pkiStore.keyIds(storage)) {
    const existing = await pkiStore.key(storage, id);
    if (existing?.managed_key_id === signer.id) return existing;
  }
  const { type, bits } = describeKey(publicKey);
  const key: KeyRecord = {
    key_id: randomUuid(d.random),
    key_name: data.key_name ?? '',
    key_type: type,
    key_bits: bits,
    private_key: '',
    managed_key_id: signer.id,
    managed_key_name: signer.name,
    public_key: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
  await pkiStore.putKey(storage, key);
  const config = await pkiStore.keysConfig(storage);
  if (!config.default) await pkiStore.putKeysConfig(storage, { default: key.key_id });
  return key;
}
