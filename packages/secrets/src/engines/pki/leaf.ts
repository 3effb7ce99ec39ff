import { InvalidRequestError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import { certificateUrlsFor } from './aia.js';
import type { PkiDeps } from './deps.js';
import { type CertFormat, formatIssued, subjectOf, usagesOf, validityOf } from './issuance.js';
import { chainOf, signerOf } from './issuers.js';
import { checkedNames } from './names.js';
import { checkOtherSans, type OtherSan } from './other-sans.js';
import { type IssuerRecord, pkiStore } from './pki-store.js';
import type { RoleRecord } from './role-store.js';
import { certificatePem, type JsonName, newSerialHex, showSerial, signCertificate, x509 } from './x509.js';

/** What a leaf request asks for, after the handler has read its fields (and its CSR, if any). */
export interface LeafRequest {
  commonName: string;
  altNames: string[];
  ipSans: string[];
  uriSans: string[];
  /** `other_sans`, parsed; checked against the role's `allowed_other_sans` (not for sign-verbatim). */
  otherSans: OtherSan[];
  ttl: number;
  notAfter: string;
  excludeCnFromSans: boolean;
  format: CertFormat;
  privateKeyFormat: string;
  publicKey: CryptoKey | x509.PublicKey;
  /** issue/: the key made for the caller, answered once. */
  privateKeyPem?: string;
  /** sign-verbatim: the CSR's subject as it is, and no name checks. */
  verbatimSubject?: JsonName;
}

/** The names a CSR asks for: its common name and its SANs by kind. */
export function csrNames(csr: x509.Pkcs10CertificateRequest) {
  const san = csr.extensions.find(
    (e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension,
  );
  const items = san?.names.items ?? [];
  return {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    dns: items.filter((n) => n.type === 'dns' || n.type === 'email').map((n) => n.value),
    ips: items.filter((n) => n.type === 'ip').map((n) => n.value),
    uris: items.filter((n) => n.type === 'url').map((n) => n.value),
  };
}

/** Signs a leaf certificate for `req` under `role` with `issuer`, stores it unless `no_store`, and answers it. */
export async function issueLeaf(
  d: PkiDeps,
  storage: Storage,
  issuer: IssuerRecord,
  role: RoleRecord,
  req: LeafRequest,
): Promise<LogicalResponse> {
  const names = req.verbatimSubject
    ? {
        dnsNames: req.altNames.filter((n) => !n.includes('@')),
        emails: req.altNames.filter((n) => n.includes('@')),
        ipAddresses: req.ipSans,
        uris: req.uriSans,
      }
    : checkedNames(role, req);
  if (!req.verbatimSubject) checkOtherSans(role.allowed_other_sans, req.otherSans);
  const { notBefore, notAfter, warnings } = validityOf(
    d,
    {
      ttl: req.ttl,
      notAfter: req.notAfter,
      roleTtl: role.ttl,
      roleMaxTtl: role.max_ttl,
      notBeforeDuration: role.not_before_duration,
    },
    issuer,
  );
  const signer = await signerOf(d, storage, issuer, role.signature_bits, role.use_pss);
  const subject = req.verbatimSubject ?? subjectOf({ ...role, common_name: req.commonName });
  const cert = await signCertificate(
    {
      subject,
      publicKey: req.publicKey,
      serialHex: newSerialHex(d.random),
      notBefore,
      notAfter,
      isCa: false,
      maxPathLength: -1,
      ...names,
      otherNames: req.otherSans,
      ...usagesOf(role),
      policyIdentifiers: role.policy_identifiers,
      urls: await certificateUrlsFor(storage, issuer),
      basicConstraintsForLeaf: role.basic_constraints_valid_for_non_ca,
    },
    signer,
  );
  const pem = certificatePem(cert);
  const serial_number = showSerial(cert.serialNumber);
  const expiration = Math.floor(notAfter.getTime() / 1000);
  if (!role.no_store)
    await pkiStore.putCert(storage, serial_number, {
      certificate: pem,
      revocation_time: 0,
      issuer_id: issuer.issuer_id,
      expiration,
    });
  const issued = {
    ...formatIssued(req.format, {
      certificate: pem,
      chain: await chainOf(storage, issuer),
      privateKey: req.privateKeyPem,
      privateKeyFormat: req.privateKeyFormat,
    }),
    serial_number,
    expiration,
  };
  const extra = warnings.length > 0 ? { warnings } : {};
  if (!role.generate_lease) return { data: issued, ...extra };
  const ttlSeconds = Math.max(1, expiration - Math.floor(d.clock.now() / 1000));
  return { secret: { type: 'pki', data: issued, internal: { serial_number }, ttlSeconds }, ...extra };
}

export function requireIssuerCanSign(issuer: IssuerRecord): void {
  if (issuer.revoked) throw new InvalidRequestError(`issuer ${issuer.issuer_id} is revoked and cannot issue`);
}
