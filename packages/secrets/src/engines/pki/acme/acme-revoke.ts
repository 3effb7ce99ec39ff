import { createPublicKey, type JsonWebKey as NodeJsonWebKey, X509Certificate } from 'node:crypto';
import type { Storage } from '../../../logical/storage.js';
import type { PkiDeps } from '../deps.js';
import { pkiStore } from '../pki-store.js';
import { revokeSerial } from '../revocation.js';
import { acmeStore } from './acme-store.js';
import { AcmeProblem, type VerifiedRequest } from './jws.js';

/**
 * Revokes a certificate (RFC 8555 7.6) for the account it was issued to, or for whoever signs with
 * the certificate's own key (`jwk` is then that key).
 */
export async function revokeCertificate(d: PkiDeps, storage: Storage, jws: VerifiedRequest) {
  const der =
    typeof jws.payload?.certificate === 'string' ? Buffer.from(jws.payload.certificate, 'base64url') : undefined;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der ?? Buffer.alloc(0));
  } catch {
    throw new AcmeProblem('malformed', 'the certificate does not parse');
  }
  const serialHex = cert.serialNumber.toLowerCase();
  const owner = await acmeStore.certOwner(storage, serialHex);
  if (!owner) throw new AcmeProblem('malformed', 'this server did not issue that certificate through ACME', 404);
  const byAccount = jws.account && jws.account.id === owner.account_id;
  const byKey =
    jws.jwk !== undefined &&
    createPublicKey({ key: jws.jwk as unknown as NodeJsonWebKey, format: 'jwk' })
      .export({ format: 'der', type: 'spki' })
      .equals(cert.publicKey.export({ format: 'der', type: 'spki' }));
  if (!byAccount && !byKey)
    throw new AcmeProblem(
      'unauthorized',
      'neither the issuing account nor the certificate key signed this request',
      403,
    );
  const stored = await pkiStore.cert(storage, serialHex);
  if (stored && stored.revocation_time > 0)
    throw new AcmeProblem('alreadyRevoked', 'the certificate is already revoked');
  await revokeSerial(d, storage, serialHex);
}
