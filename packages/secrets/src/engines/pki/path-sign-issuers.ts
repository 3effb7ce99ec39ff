import { definePath, type FieldValues, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { certificateUrlsFor } from './aia.js';
import { caFields } from './ca-fields.js';
import type { PkiDeps } from './deps.js';
import { formatIssued, subjectOf, validityOf } from './issuance.js';
import { chainOf, resolveIssuer, signerOf } from './issuers.js';
import { csrNames, requireIssuerCanSign } from './leaf.js';
import { pkiStore } from './pki-store.js';
import {
  certificatePem,
  crypto,
  newSerialHex,
  parseCertificates,
  parseCsr,
  showSerial,
  signCertificate,
  x509,
} from './x509.js';

const issuerRef = { issuer_ref: field.path({ description: 'The issuer to sign with (id, name or default).' }) };
const signFields = {
  ...caFields,
  csr: field.string({ description: 'The intermediate’s PEM certificate request.', required: true }),
  use_csr_values: field.bool({ description: 'Take the subject and SANs from the CSR.', default: false }),
};
type SignData = FieldValues<typeof signFields> & { issuer_ref?: string };

/** Signs an intermediate CA's CSR with an issuer of this mount. */
async function signIntermediate(d: PkiDeps, storage: Storage, data: SignData) {
  const issuer = await resolveIssuer(storage, data.issuer_ref ?? 'default');
  requireIssuerCanSign(issuer);
  const csr = await parseCsr(data.csr);
  const asked = csrNames(csr);
  const commonName = data.common_name || (data.use_csr_values ? asked.commonName : '');
  if (!commonName && !data.use_csr_values) throw new InvalidRequestError('the common_name field is required');
  const { notBefore, notAfter, warnings } = validityOf(
    d,
    { ttl: data.ttl, notAfter: data.not_after, roleTtl: 0, roleMaxTtl: 0, notBeforeDuration: data.not_before_duration },
    // As established, an intermediate may outlive the issuer that signs it.
    { ...issuer, leaf_not_after_behavior: 'permit' },
  );
  const parentPath = new x509.X509Certificate(issuer.certificate).getExtension(
    x509.BasicConstraintsExtension,
  )?.pathLength;
  const maxPathLength =
    data.max_path_length >= 0 ? data.max_path_length : parentPath !== undefined ? Math.max(parentPath - 1, 0) : -1;
  const signer = await signerOf(d, storage, issuer, data.signature_bits, data.use_pss);
  const cert = await signCertificate(
    {
      subject: data.use_csr_values ? csr.subjectName.toJSON() : subjectOf({ ...data, common_name: commonName }),
      publicKey: csr.publicKey,
      serialHex: newSerialHex(d.random),
      notBefore,
      notAfter,
      isCa: true,
      maxPathLength,
      dnsNames: data.use_csr_values
        ? asked.dns
        : data.exclude_cn_from_sans
          ? data.alt_names
          : [commonName, ...data.alt_names].filter((n) => n && !n.includes(' ')),
      ipAddresses: data.use_csr_values ? asked.ips : data.ip_sans,
      uris: data.use_csr_values ? asked.uris : data.uri_sans,
      emails: [],
      keyUsage: 0,
      extKeyUsage: [],
      policyIdentifiers: [],
      urls: await certificateUrlsFor(storage, issuer),
      basicConstraintsForLeaf: false,
      permittedDnsDomains: data.permitted_dns_domains,
    },
    signer,
  );
  const pem = certificatePem(cert);
  const serial_number = showSerial(cert.serialNumber);
  const expiration = Math.floor(notAfter.getTime() / 1000);
  await pkiStore.putCert(storage, serial_number, {
    certificate: pem,
    revocation_time: 0,
    issuer_id: issuer.issuer_id,
    expiration,
  });
  const chain = await chainOf(storage, issuer);
  return {
    data: {
      ...formatIssued(data.format, { certificate: pem, chain, privateKeyFormat: 'der' }),
      serial_number,
      expiration,
    },
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Signs a self-issued CA certificate again with an issuer of this mount (cross-signing by hand). */
async function signSelfIssued(d: PkiDeps, storage: Storage, data: { certificate: string; issuer_ref?: string }) {
  const issuer = await resolveIssuer(storage, data.issuer_ref ?? 'default');
  requireIssuerCanSign(issuer);
  const [cert] = parseCertificates(data.certificate);
  if (!cert) throw new InvalidRequestError('no certificate found in input');
  if (cert.subject !== cert.issuer) throw new InvalidRequestError('given certificate is not self-issued');
  if (!cert.getExtension(x509.BasicConstraintsExtension)?.ca)
    throw new InvalidRequestError('given certificate is not a CA certificate');
  const signer = await signerOf(d, storage, issuer);
  const issuerSki = signer.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? '';
  const extensions = cert.extensions
    .filter((e) => !(e instanceof x509.AuthorityKeyIdentifierExtension) && e.type !== '2.5.29.35')
    .concat(new x509.AuthorityKeyIdentifierExtension(issuerSki, false));
  const signed = await x509.X509CertificateGenerator.create(
    {
      serialNumber: cert.serialNumber,
      subject: cert.subjectName,
      issuer: signer.certificate.subjectName,
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      publicKey: cert.publicKey,
      signingKey: signer.privateKey as CryptoKey,
      signingAlgorithm: signer.algorithm,
      extensions,
    },
    crypto,
  );
  return { data: { certificate: certificatePem(signed), issuing_ca: issuer.certificate } };
}

/** `root/sign-intermediate`, `issuer/:ref/sign-intermediate`, `root/sign-self-issued`, `issuer/:ref/sign-self-issued`. */
export function pathSignIssuers(d: PkiDeps): PathDefinition[] {
  const selfFields = {
    certificate: field.string({ description: 'The self-issued CA certificate (PEM).', required: true }),
    require_matching_certificate_algorithms: field.bool({ description: 'Not enforced here.', default: false }),
  };
  const intermediate = (pattern: string, fields: object) =>
    definePath({
      pattern,
      fields: fields as typeof signFields,
      operations: {
        update: {
          summary: 'Sign an intermediate CA.',
          handler: async ({ storage, data }) => signIntermediate(d, storage, data as SignData),
        },
      },
      help: {
        synopsis: 'Sign an intermediate CA CSR.',
        description: 'Answers the CA certificate and the chain above it.',
      },
    });
  const selfIssued = (pattern: string, fields: object) =>
    definePath({
      pattern,
      fields: fields as typeof selfFields,
      operations: {
        update: {
          summary: 'Sign a self-issued CA certificate.',
          handler: async ({ storage, data }) => signSelfIssued(d, storage, data),
        },
      },
      help: {
        synopsis: 'Sign a self-issued certificate.',
        description: 'Subject, key, validity and extensions are kept.',
      },
    });
  return [
    intermediate('root/sign-intermediate', signFields),
    intermediate('issuer/:issuer_ref/sign-intermediate', { ...signFields, ...issuerRef }),
    selfIssued('root/sign-self-issued', selfFields),
    selfIssued('issuer/:issuer_ref/sign-self-issued', { ...selfFields, ...issuerRef }),
  ];
}
