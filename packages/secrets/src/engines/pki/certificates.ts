import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Random } from '@ward/base';
import forge from 'node-forge';

/**
 * X.509 for the PKI engine. Keys come from Node's crypto; node-forge assembles and signs the
 * certificates, as Node has no API to issue them (the same split as `-dev-tls`). RSA only:
 * node-forge signs with RSA keys alone.
 */

const generateRsa = promisify(generateKeyPair);

export const RSA_KEY_BITS = [2048, 3072, 4096] as const;

export interface KeyPairPem {
  publicKey: string;
  privateKey: string;
}

export async function newRsaKey(bits: number): Promise<KeyPairPem> {
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

/** Where relying parties find the issuer and its revocations (`config/urls`), written into each certificate. */
export interface CertificateUrls {
  issuing_certificates: string[];
  crl_distribution_points: string[];
  ocsp_servers: string[];
}

export interface CertificateRequest {
  publicKeyPem: string;
  commonName: string;
  dnsNames: string[];
  ipAddresses: string[];
  notBeforeMs: number;
  notAfterMs: number;
  isCa: boolean;
  urls: CertificateUrls;
}

export interface Issuer {
  certificatePem: string;
  privateKeyPem: string;
}

/** A serial as established shows it: lower-case hex byte pairs joined by colons. */
export function showSerial(hex: string): string {
  return (hex.match(/../g) ?? []).join(':');
}

/** Signs `req` with `issuer`'s key (or its own key `selfKeyPem` for a root). Answers PEM and the serial (hex). */
export function issueCertificate(
  req: CertificateRequest,
  random: Random,
  issuer: Issuer | { selfKeyPem: string },
): { pem: string; serialHex: string } {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(req.publicKeyPem);
  // A positive 20-byte serial: a leading byte below 0x80 keeps the DER integer from reading as negative.
  const bytes = Buffer.from(random.bytes(20));
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  cert.serialNumber = bytes.toString('hex');
  cert.validity.notBefore = new Date(req.notBeforeMs);
  cert.validity.notAfter = new Date(req.notAfterMs);
  cert.setSubject([{ name: 'commonName', value: req.commonName }]);
  const signer = 'selfKeyPem' in issuer ? undefined : forge.pki.certificateFromPem(issuer.certificatePem);
  cert.setIssuer(signer ? signer.subject.attributes : cert.subject.attributes);
  cert.setExtensions(extensionsOf(req, signer));
  const keyPem = 'selfKeyPem' in issuer ? issuer.selfKeyPem : issuer.privateKeyPem;
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { pem: forge.pki.certificateToPem(cert), serialHex: cert.serialNumber };
}

function extensionsOf(req: CertificateRequest, signer: forge.pki.Certificate | undefined): object[] {
  const extensions: object[] = req.isCa
    ? [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ]
    : [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyAgreement: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      ];
  extensions.push({ name: 'subjectKeyIdentifier' });
  if (signer) {
    const keyIdentifier = signer.generateSubjectKeyIdentifier().getBytes();
    extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier });
  }
  const altNames = [
    ...req.dnsNames.map((value) => ({ type: 2, value })),
    ...req.ipAddresses.map((ip) => ({ type: 7, ip })),
  ];
  if (altNames.length > 0) extensions.push({ name: 'subjectAltName', altNames });
  if (req.urls.crl_distribution_points.length > 0)
    extensions.push({
      name: 'cRLDistributionPoints',
      altNames: req.urls.crl_distribution_points.map((value) => ({ type: 6, value })),
    });
  const aia = authorityInfoAccess(req.urls);
  if (aia) extensions.push(aia);
  return extensions;
}

const OID_AIA = '1.3.6.1.5.5.7.1.1';
const OID_CA_ISSUERS = '1.3.6.1.5.5.7.48.2';
const OID_OCSP = '1.3.6.1.5.5.7.48.1';

/** Authority Information Access (RFC 5280 4.2.2.1), which node-forge has no builder for. */
function authorityInfoAccess(urls: CertificateUrls): object | undefined {
  const { asn1 } = forge;
  const access = (method: string, uri: string) =>
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(method).getBytes()),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 6, false, uri),
    ]);
  const descriptions = [
    ...urls.ocsp_servers.map((u) => access(OID_OCSP, u)),
    ...urls.issuing_certificates.map((u) => access(OID_CA_ISSUERS, u)),
  ];
  if (descriptions.length === 0) return undefined;
  const value = asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, descriptions)).getBytes();
  return { id: OID_AIA, critical: false, value };
}
