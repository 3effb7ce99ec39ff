import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { boundedCache } from './key-cache.js';
import type { HeldTransitKey } from './key-store.js';
import type { KeyVersion } from './key-types.js';
import { specOf } from './key-types.js';
import { MISSING_CONTEXT } from './symmetric.js';

/** Parsed key objects by the stored text they come from (PKCS#8 base64, public key text, derivation root and context). */
const cached = boundedCache<KeyObject>();
const cachedPair = boundedCache<DerivedPair>();

/** Whether the version holds only a public key (imported with `public_key`): it verifies, and encrypts for RSA. */
export function isPublicOnly(version: KeyVersion): boolean {
  return version.key === '';
}

/** The private key of an asymmetric version; 400 for a version imported as a public key only. */
export function privateKeyOf(version: KeyVersion): KeyObject {
  if (isPublicOnly(version))
    throw new InvalidRequestError('requested version for signing does not contain a private part');
  return cached(`private:${version.key}`, () =>
    createPrivateKey({ key: Buffer.from(version.key, 'base64'), format: 'der', type: 'pkcs8' }),
  );
}

/** The public half of an asymmetric version, from its private key or, public-only, its `public_key`. */
export function publicKeyOf(version: KeyVersion): KeyObject {
  if (!isPublicOnly(version)) return cached(`public:${version.key}`, () => createPublicKey(privateKeyOf(version)));
  const text = version.public_key ?? '';
  return cached(`public-text:${text}`, () =>
    text.startsWith('-----')
      ? createPublicKey(text)
      : createPublicKey({
          key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(text, 'base64').toString('base64url') },
          format: 'jwk',
        }),
  );
}

/** The derived ed25519 key pair of `context`. */
export interface DerivedPair {
  privateKey: KeyObject;
  /** The 32 raw bytes of the public key. */
  publicRaw: Buffer;
}

/**
 * The ed25519 key a derived key uses for `context`, as established: HKDF-SHA256 (no salt,
 * `context` as info) over the version's 64 stored bytes (seed ‖ public key) gives the seed.
 */
export function derivedEd25519(version: KeyVersion, context: Buffer | undefined): DerivedPair {
  if (!context || context.length === 0) throw new InvalidRequestError(MISSING_CONTEXT);
  return cachedPair(`derived:${version.key}:${context.toString('base64')}`, () => {
    const jwk = privateKeyOf(version).export({ format: 'jwk' });
    const root = Buffer.concat([Buffer.from(jwk.d ?? '', 'base64url'), Buffer.from(jwk.x ?? '', 'base64url')]);
    const seed = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), context, 32));
    const publicRaw = Buffer.from(ed25519.getPublicKey(seed));
    const privateKey = createPrivateKey({
      key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: publicRaw.toString('base64url') },
      format: 'jwk',
    });
    return { privateKey, publicRaw };
  });
}

/** Whether operations on `entry` derive a signing key from the context (derived ed25519). */
export function derivesSigningKeys(entry: HeldTransitKey): boolean {
  return entry.derived && specOf(entry.type).kind === 'ed25519';
}

/** The key that signs with `version` of `entry`, derived from `context` where the key derives. */
export function signingKeyOf(entry: HeldTransitKey, version: KeyVersion, context: Buffer | undefined): KeyObject {
  return derivesSigningKeys(entry) ? derivedEd25519(version, context).privateKey : privateKeyOf(version);
}

/** The key that verifies signatures of `version` of `entry`. */
export function verifyingKeyOf(entry: HeldTransitKey, version: KeyVersion, context: Buffer | undefined): KeyObject {
  if (!derivesSigningKeys(entry)) return publicKeyOf(version);
  const { publicRaw } = derivedEd25519(version, context);
  return cached(`public-text:${publicRaw.toString('base64')}`, () =>
    createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicRaw.toString('base64url') }, format: 'jwk' }),
  );
}
