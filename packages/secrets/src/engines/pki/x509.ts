// @peculiar/x509 is typed with the DOM's WebCrypto types (CryptoKey, Crypto, Algorithm); until issue 29
// they came into this package with @cdktf/hcl2json's typings, which the HCL1 parser replaced.
/// <reference lib="dom" />
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  CRLNumber,
  DistributionPoint,
  DistributionPointName,
  FreshestCRL,
  GeneralName,
  GeneralSubtree,
  GeneralSubtrees,
  id_ce_cRLNumber,
  id_ce_deltaCRLIndicator,
  id_ce_freshestCRL,
  id_ce_nameConstraints,
  id_ce_subjectAltName,
  NameConstraints,
  OtherName,
  SubjectAlternativeName,
} from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import type { Random } from '@ward/base';
import * as asn1js from 'asn1js';
import { InvalidRequestError } from '../../logical/errors.js';
import { cryptoWithManagedKeys, type ManagedSigningKey } from './managed-keys.js';

export { x509 };
/**
 * Node's WebCrypto, handed to every @peculiar/x509 call (its own default provider is module state);
 * a CA key held as a managed key signs through its HSM or key service.
 */
export const crypto = cryptoWithManagedKeys();

export type JsonName = x509.JsonName;
export type SigningAlgorithm = { name: string; hash?: string; namedCurve?: string };

/** Where relying parties find the issuer and its revocations (`config/urls`), written into each certificate. */
export interface CertificateUrls {
  issuing_certificates: string[];
  crl_distribution_points: string[];
  ocsp_servers: string[];
  /** Where the delta CRLs are (the Freshest CRL extension); absent in records of earlier releases. */
  delta_crl_distribution_points?: string[];
}

/** A serial as established shows it: lower-case hex byte pairs joined by colons. */
export function showSerial(hex: string): string {
  const even = hex.length % 2 ? `0${hex}` : hex;
  return (even.toLowerCase().match(/../g) ?? []).join(':');
}

/** A positive random serial of 20 bytes (a leading byte below 0x80 keeps the DER integer positive). */
export function newSerialHex(random: Random): string {
  const bytes = Buffer.from(random.bytes(20));
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  return bytes.toString('hex');
}

export interface Signer {
  /** The issuer's certificate; absent for a self-signed certificate. */
  certificate?: x509.X509Certificate;
  privateKey: CryptoKey | ManagedSigningKey;
  algorithm: SigningAlgorithm;
}

/** One `other_sans` entry, `<oid>;UTF8:<value>` as established (OpenSSL's form; only UTF-8 strings). */
export interface OtherSan {
  oid: string;
  value: string;
}

/** The SAN extension with other names (OtherName, the value an explicit UTF8String), built with @peculiar/asn1-x509. */
function sanWithOtherNames(spec: CertificateSpec, otherNames: OtherSan[]): x509.Extension {
  const general: GeneralName[] = [
    ...spec.dnsNames.map((dNSName) => new GeneralName({ dNSName })),
    ...spec.emails.map((rfc822Name) => new GeneralName({ rfc822Name })),
    ...spec.ipAddresses.map((iPAddress) => new GeneralName({ iPAddress })),
    ...spec.uris.map((uniformResourceIdentifier) => new GeneralName({ uniformResourceIdentifier })),
    ...otherNames.map(
      (san) =>
        new GeneralName({
          otherName: new OtherName({ typeId: san.oid, value: new asn1js.Utf8String({ value: san.value }).toBER() }),
        }),
    ),
  ];
  const value = AsnConvert.serialize(new SubjectAlternativeName(general));
  return new x509.Extension(id_ce_subjectAltName, false, value);
}

/** What a new certificate says. */
export interface CertificateSpec {
  subject: JsonName;
  publicKey: CryptoKey | x509.PublicKey;
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  /** CA only: -1 for none. */
  maxPathLength: number;
  dnsNames: string[];
  ipAddresses: string[];
  uris: string[];
  emails: string[];
  /** `other_sans`: OtherName entries of the SAN extension. */
  otherNames?: OtherSan[];
  /** Leaf only: key usage flags (x509.KeyUsageFlags) and extended key usage OIDs. */
  keyUsage: number;
  extKeyUsage: string[];
  policyIdentifiers: string[];
  urls: CertificateUrls;
  /** Leaf only: include Basic Constraints (CA false), as `basic_constraints_valid_for_non_ca` asks. */
  basicConstraintsForLeaf: boolean;
  /** CA only: DNS name constraints (`permitted_dns_domains`), critical as established. */
  permittedDnsDomains?: string[];
}

async function extensionsOf(spec: CertificateSpec, signer: Signer): Promise<x509.Extension[]> {
  const extensions: x509.Extension[] = [];
  if (spec.isCa) {
    const pathLength = spec.maxPathLength >= 0 ? spec.maxPathLength : undefined;
    extensions.push(new x509.BasicConstraintsExtension(true, pathLength, true));
    const usage = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature;
    extensions.push(new x509.KeyUsagesExtension(usage, true));
    const permitted = spec.permittedDnsDomains ?? [];
    if (permitted.length > 0) {
      const subtrees = new GeneralSubtrees(
        permitted.map((d) => new GeneralSubtree({ base: new GeneralName({ dNSName: d }) })),
      );
      const value = AsnConvert.serialize(new NameConstraints({ permittedSubtrees: subtrees }));
      extensions.push(new x509.Extension(id_ce_nameConstraints, true, value));
    }
  } else {
    if (spec.basicConstraintsForLeaf) extensions.push(new x509.BasicConstraintsExtension(false, undefined, false));
    if (spec.keyUsage) extensions.push(new x509.KeyUsagesExtension(spec.keyUsage, true));
    if (spec.extKeyUsage.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(spec.extKeyUsage, false));
  }
  const publicKey = spec.publicKey instanceof x509.PublicKey ? await spec.publicKey.export(crypto) : spec.publicKey;
  const ski = await x509.SubjectKeyIdentifierExtension.create(publicKey, false, crypto);
  extensions.push(ski);
  const issuerSki = signer.certificate?.getExtension(x509.SubjectKeyIdentifierExtension);
  extensions.push(new x509.AuthorityKeyIdentifierExtension(issuerSki?.keyId ?? ski.keyId, false));
  const names: x509.JsonGeneralName[] = [
    ...spec.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...spec.emails.map((value) => ({ type: 'email' as const, value })),
    ...spec.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
    ...spec.uris.map((value) => ({ type: 'url' as const, value })),
  ];
  if (spec.otherNames?.length) extensions.push(sanWithOtherNames(spec, spec.otherNames));
  else if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names, false));
  if (spec.policyIdentifiers.length > 0)
    extensions.push(new x509.CertificatePolicyExtension(spec.policyIdentifiers, false));
  const { ocsp_servers: ocsp, issuing_certificates: caIssuers, crl_distribution_points: crls } = spec.urls;
  if (ocsp.length > 0 || caIssuers.length > 0)
    extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp, caIssuers }, false));
  if (crls.length > 0) extensions.push(new x509.CRLDistributionPointsExtension(crls, false));
  const deltas = spec.urls.delta_crl_distribution_points ?? [];
  if (deltas.length > 0) extensions.push(freshestCrlExtension(deltas));
  return extensions;
}

/** Signs a certificate for `spec` with `signer` (self-signed when the signer has no certificate). */
export async function signCertificate(spec: CertificateSpec, signer: Signer): Promise<x509.X509Certificate> {
  const subject = new x509.Name(spec.subject);
  return x509.X509CertificateGenerator.create(
    {
      serialNumber: spec.serialHex,
      subject,
      issuer: signer.certificate ? signer.certificate.subjectName : subject,
      notBefore: spec.notBefore,
      notAfter: spec.notAfter,
      publicKey: spec.publicKey,
      signingKey: signer.privateKey as CryptoKey,
      signingAlgorithm: signer.algorithm,
      extensions: await extensionsOf(spec, signer),
    },
    crypto,
  );
}

/** A PKCS#10 request for `subject`, signed by the key it asks a certificate for. */
export async function signCsr(
  subject: JsonName,
  keys: { privateKey: CryptoKey | ManagedSigningKey; publicKey: CryptoKey },
  algorithm: SigningAlgorithm,
  names: x509.JsonGeneralName[],
) {
  const extensions = names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names, false)] : [];
  return x509.Pkcs10CertificateRequestGenerator.create(
    { name: new x509.Name(subject), keys: keys as CryptoKeyPair, signingAlgorithm: algorithm, extensions },
    crypto,
  );
}

/** A CSR from PEM, its signature checked; 400 otherwise. */
export async function parseCsr(pem: string): Promise<x509.Pkcs10CertificateRequest> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem.trim());
  } catch (err) {
    throw new InvalidRequestError(
      `certificate request could not be parsed: ${err instanceof Error ? err.message : err}`,
    );
  }
  if (!(await csr.verify(crypto))) throw new InvalidRequestError('request signature invalid');
  return csr;
}

/** Every certificate in a PEM text, in order; 400 when one does not parse. */
export function parseCertificates(pem: string): x509.X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    return blocks.map((block) => new x509.X509Certificate(block));
  } catch {
    throw new InvalidRequestError('unable to parse the certificate');
  }
}

export function certificatePem(cert: x509.X509Certificate): string {
  return cert.toString('pem').trim();
}

export interface CrlEntry {
  serialHex: string;
  revokedAt: Date;
}

/** The Freshest CRL extension (RFC 5280 4.2.1.15): where the delta CRLs are, one distribution point per URL. */
export function freshestCrlExtension(urls: string[]): x509.Extension {
  const points = urls.map(
    (url) =>
      new DistributionPoint({
        distributionPoint: new DistributionPointName({
          fullName: [new GeneralName({ uniformResourceIdentifier: url })],
        }),
      }),
  );
  return new x509.Extension(id_ce_freshestCRL, false, AsnConvert.serialize(new FreshestCRL(points)));
}

/** A CRL of `entries` signed by `signer` (whose certificate names the issuer); a delta CRL names its base's number. */
export async function signCrl(
  signer: Required<Signer>,
  entries: CrlEntry[],
  o: { number: number; thisUpdate: Date; nextUpdate: Date; deltaOf?: number; freshest?: string[] },
): Promise<Buffer> {
  const extensions: x509.Extension[] = [
    new x509.AuthorityKeyIdentifierExtension(
      signer.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? '',
      false,
    ),
    new x509.Extension(id_ce_cRLNumber, false, AsnConvert.serialize(new CRLNumber(o.number))),
  ];
  if (o.deltaOf !== undefined)
    extensions.push(new x509.Extension(id_ce_deltaCRLIndicator, true, AsnConvert.serialize(new CRLNumber(o.deltaOf))));
  else if (o.freshest && o.freshest.length > 0) extensions.push(freshestCrlExtension(o.freshest));
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: signer.certificate.subjectName,
      thisUpdate: o.thisUpdate,
      nextUpdate: o.nextUpdate,
      entries: entries.map((e) => ({ serialNumber: e.serialHex, revocationDate: e.revokedAt })),
      signingKey: signer.privateKey as CryptoKey,
      signingAlgorithm: signer.algorithm,
      extensions,
    },
    crypto,
  );
  return Buffer.from(crl.rawData);
}

/** PEM text of DER bytes under `label` (`X509 CRL`, `CERTIFICATE REQUEST`, …). */
export function pemOf(der: ArrayBuffer | Uint8Array, label: string): string {
  const bytes = der instanceof Uint8Array ? der : new Uint8Array(der);
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return x509.PemConverter.encode(copy, label).trim();
}
