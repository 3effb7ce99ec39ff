import { createHash, sign as nodeSign } from 'node:crypto';
import {
  BasicOCSPResponse,
  type CertID,
  CertStatus,
  id_pkix_ocsp_basic,
  id_pkix_ocsp_nonce,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  ResponderID,
  ResponseBytes,
  ResponseData,
  RevokedInfo,
  SingleResponse,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { Extension, SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { allIssuers } from './issuers.js';
import { isManagedRecord, keyPairOfRecord } from './key-records.js';
import { parsePrivateKey, signingAlgorithm } from './keys.js';
import type { ManagedSigningKey } from './managed-keys.js';
import { type IssuerRecord, pkiStore } from './pki-store.js';
import { x509 } from './x509.js';

/**
 * The OCSP responder (RFC 6960): each CertID is matched against the mount's issuers by the hashes
 * of their names and keys, and answered good, revoked or unknown, signed by that issuer's key.
 * The ASN.1 structures are @peculiar/asn1-ocsp's.
 */

const HASHES = new Map([
  ['1.3.14.3.2.26', 'sha1'],
  ['2.16.840.1.101.3.4.2.1', 'sha256'],
  ['2.16.840.1.101.3.4.2.2', 'sha384'],
  ['2.16.840.1.101.3.4.2.3', 'sha512'],
]);
const NODE_HASH = new Map([
  ['SHA-256', 'sha256'],
  ['SHA-384', 'sha384'],
  ['SHA-512', 'sha512'],
]);

const digest = (algorithm: string, data: ArrayBuffer | Uint8Array) =>
  createHash(algorithm)
    .update(new Uint8Array(data instanceof Uint8Array ? data : new Uint8Array(data)))
    .digest();

/** The answer to a malformed request (`malformedRequest`, no signature), as RFC 6960 4.2.1 says. */
export function ocspFailure(status: OCSPResponseStatus): Buffer {
  return Buffer.from(AsnConvert.serialize(new OCSPResponse({ responseStatus: status })));
}

/** Answers a DER OCSP request; malformed input gets the `malformedRequest` status, as RFC 6960 says. */
export async function answerOcsp(d: PkiDeps, storage: Storage, der: Uint8Array): Promise<Buffer> {
  let request: OCSPRequest;
  try {
    request = AsnConvert.parse(der, OCSPRequest);
  } catch {
    return ocspFailure(OCSPResponseStatus.malformedRequest);
  }
  const requests = request.tbsRequest.requestList;
  if (requests.length === 0) return ocspFailure(OCSPResponseStatus.malformedRequest);
  const issuers = (await allIssuers(storage)).filter((i) => i.key_id);
  const matchedBy = (id: CertID): IssuerRecord | undefined => {
    const hash = HASHES.get(id.hashAlgorithm.algorithm);
    if (!hash) return undefined;
    for (const issuer of issuers) {
      const cert = new x509.X509Certificate(issuer.certificate);
      const nameHash = digest(hash, cert.subjectName.toArrayBuffer());
      const keyHash = digest(hash, spkiBits(cert));
      if (
        nameHash.equals(Buffer.from(id.issuerNameHash.buffer)) &&
        keyHash.equals(Buffer.from(id.issuerKeyHash.buffer))
      )
        return issuer;
    }
    return undefined;
  };
  const first = matchedBy(requests[0]?.reqCert as CertID);
  // Without a known issuer there is no key to sign with: RFC 6960 2.3 "unauthorized".
  if (!first) return ocspFailure(OCSPResponseStatus.unauthorized);
  const config = await pkiStore.crlConfig(storage);
  if (config.ocsp_disable) return ocspFailure(OCSPResponseStatus.unauthorized);
  const nowMs = d.clock.now();
  const responses: SingleResponse[] = [];
  for (const one of requests) {
    const id = one.reqCert;
    const matched = matchedBy(id);
    const serial = Buffer.from(id.serialNumber).toString('hex').replace(/^00/, '');
    const stored = matched && matched.issuer_id === first.issuer_id ? await pkiStore.cert(storage, serial) : undefined;
    const status = !stored
      ? new CertStatus({ unknown: null })
      : stored.revocation_time > 0
        ? new CertStatus({ revoked: new RevokedInfo({ revocationTime: new Date(stored.revocation_time * 1000) }) })
        : new CertStatus({ good: null });
    responses.push(
      new SingleResponse({
        certID: id,
        certStatus: status,
        thisUpdate: new Date(nowMs),
        ...(config.ocsp_expiry > 0 ? { nextUpdate: new Date(nowMs + config.ocsp_expiry * 1000) } : {}),
      }),
    );
  }
  const nonce = request.tbsRequest.requestExtensions?.find((e) => e.extnID === id_pkix_ocsp_nonce);
  const data = new ResponseData({
    responderID: new ResponderID({
      byKey: new OctetString(digest('sha1', spkiBits(new x509.X509Certificate(first.certificate)))),
    }),
    producedAt: new Date(nowMs),
    responses,
    ...(nonce
      ? {
          responseExtensions: [
            new Extension({ extnID: id_pkix_ocsp_nonce, critical: false, extnValue: nonce.extnValue }),
          ],
        }
      : {}),
  });
  const basic = await signResponse(d, storage, first, data);
  const response = new OCSPResponse({
    responseStatus: OCSPResponseStatus.successful,
    responseBytes: new ResponseBytes({
      responseType: id_pkix_ocsp_basic,
      response: new OctetString(AsnConvert.serialize(basic)),
    }),
  });
  return Buffer.from(AsnConvert.serialize(response));
}

/** The bits of a certificate's subjectPublicKey (what an OCSP key hash covers). */
function spkiBits(cert: x509.X509Certificate): ArrayBuffer {
  return AsnConvert.parse(cert.publicKey.rawData, SubjectPublicKeyInfo).subjectPublicKey;
}

async function signResponse(
  d: PkiDeps,
  storage: Storage,
  issuer: IssuerRecord,
  data: ResponseData,
): Promise<BasicOCSPResponse> {
  const key = await pkiStore.key(storage, issuer.key_id);
  if (!key) throw new InvalidRequestError(`issuer ${issuer.issuer_id} has no key to sign OCSP answers`);
  const algorithm = signingAlgorithm(key.key_type, key.key_bits);
  const tbs = Buffer.from(AsnConvert.serialize(data));
  let signature: Uint8Array;
  if (isManagedRecord(key)) {
    const { privateKey } = await keyPairOfRecord(d, key, algorithm);
    signature = await (privateKey as ManagedSigningKey).signDer(algorithm, tbs);
  } else {
    const hash = key.key_type === 'ed25519' ? null : (NODE_HASH.get(algorithm.hash ?? 'SHA-256') ?? 'sha256');
    signature = nodeSign(hash, tbs, parsePrivateKey(key.private_key));
  }
  const signatureAlgorithm = new x509.AlgorithmProvider().toAsnAlgorithm(algorithm as Algorithm);
  return new BasicOCSPResponse({
    tbsResponseData: data,
    signatureAlgorithm,
    signature: new Uint8Array(signature).buffer,
  });
}
