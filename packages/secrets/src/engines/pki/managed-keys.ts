import { createHash, type KeyObject, webcrypto } from 'node:crypto';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import type { HashAlgorithm, ManagedKeyRef, ManagedKeySigner } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';

/** The WebCrypto algorithm a CA key signs with (as keys.ts `signingAlgorithm` makes it). */
interface SigningAlgorithm {
  name: string;
  hash?: string | { name: string };
  namedCurve?: string;
}

const HASHES = new Map<string, { engine: HashAlgorithm; node: string }>([
  ['SHA-1', { engine: 'sha1', node: 'sha1' }],
  ['SHA-256', { engine: 'sha2-256', node: 'sha256' }],
  ['SHA-384', { engine: 'sha2-384', node: 'sha384' }],
  ['SHA-512', { engine: 'sha2-512', node: 'sha512' }],
]);
const CURVES = new Map([
  ['P-256', p256],
  ['P-384', p384],
  ['P-521', p521],
]);

function hashOf(algorithm: SigningAlgorithm) {
  const name = typeof algorithm.hash === 'string' ? algorithm.hash : (algorithm.hash?.name ?? 'SHA-256');
  const hash = HASHES.get(name.toUpperCase());
  if (!hash) throw new InvalidRequestError(`managed keys cannot sign with ${name}`);
  return hash;
}

/**
 * A CA key inside an HSM or key service (`managed_key_name`/`managed_key_id`), standing in for the
 * CryptoKey @peculiar/x509's generators sign with: `crypto.subtle.sign` (see x509.ts) hands the
 * digest of what they sign to the managed key, so the private key never leaves it.
 */
export class ManagedSigningKey {
  readonly type = 'private';
  readonly extractable = false;
  readonly usages = ['sign'];
  constructor(
    readonly signer: ManagedKeySigner,
    readonly algorithm: SigningAlgorithm,
  ) {}

  /** A signature of `data` in WebCrypto's encoding (ECDSA as r ‖ s), as the generators expect. */
  async signData(algorithm: SigningAlgorithm, data: Uint8Array): Promise<ArrayBuffer> {
    const merged = { ...this.algorithm, ...algorithm };
    const der = await this.signDer(merged, data);
    if (merged.name !== 'ECDSA') return new Uint8Array(der).slice().buffer;
    const curve = CURVES.get(merged.namedCurve ?? '');
    if (!curve) throw new InvalidRequestError(`managed keys cannot sign with curve ${merged.namedCurve}`);
    return new Uint8Array(curve.Signature.fromBytes(der, 'der').toBytes('compact')).slice().buffer;
  }

  /** A signature of `data` as X.509 and OCSP carry it (ECDSA in DER). */
  async signDer(algorithm: SigningAlgorithm, data: Uint8Array): Promise<Uint8Array> {
    if (algorithm.name === 'Ed25519') throw new InvalidRequestError('managed keys cannot sign with Ed25519');
    const hash = hashOf(algorithm);
    const digest = createHash(hash.node).update(data).digest();
    return this.signer.sign(digest, { hash: hash.engine, usePss: algorithm.name === 'RSA-PSS' });
  }
}

/** How the engine reaches the mount's managed keys (absent where the server has none). */
export type ManagedKeyLookup = ((ref: ManagedKeyRef) => Promise<ManagedKeySigner>) | undefined;

/** The managed key a request names by `managed_key_name` or `managed_key_id` (exactly one), as established. */
export async function managedKeyOf(
  lookup: ManagedKeyLookup,
  data: { managed_key_name?: string; managed_key_id?: string },
): Promise<{ signer: ManagedKeySigner; publicKey: KeyObject }> {
  if (data.managed_key_name && data.managed_key_id)
    throw new InvalidRequestError('only one of managed_key_name or managed_key_id should be specified');
  if (!data.managed_key_name && !data.managed_key_id)
    throw new InvalidRequestError('missing managed_key_name or managed_key_id for type kms');
  if (!lookup) throw new InvalidRequestError('managed keys are not available on this server');
  const signer = await lookup(
    data.managed_key_id ? { id: data.managed_key_id } : { name: data.managed_key_name ?? '' },
  );
  return { signer, publicKey: await signer.publicKey() };
}

/** Node's WebCrypto, with `subtle.sign` handing a ManagedSigningKey's signatures to its HSM or key service. */
export function cryptoWithManagedKeys(): Crypto {
  const subtle = webcrypto.subtle;
  const sign = (algorithm: SigningAlgorithm, key: unknown, data: BufferSource) => {
    if (key instanceof ManagedSigningKey) {
      const bytes = ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : new Uint8Array(data as ArrayBuffer);
      return key.signData(algorithm, bytes);
    }
    return subtle.sign(algorithm as never, key as never, data as never);
  };
  const wrapped = new Proxy(subtle, {
    get: (target, property) => {
      if (property === 'sign') return sign;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    subtle: wrapped,
    getRandomValues: (array: never) => webcrypto.getRandomValues(array),
    randomUUID: () => webcrypto.randomUUID(),
  } as unknown as Crypto;
}
