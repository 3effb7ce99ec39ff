import { X509Certificate as NodeCertificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { id_ce_nameConstraints, NameConstraints } from '@peculiar/asn1-x509';
import {
  BasicConstraintsExtension,
  X509Certificate as PeculiarCertificate,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
} from '@peculiar/x509';
import { CliError } from './command.js';

/** Subject attributes by their OIDs, and the generate/intermediate field each becomes. */
const SUBJECT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['2.5.4.11', 'ou'],
  ['2.5.4.10', 'organization'],
  ['2.5.4.6', 'country'],
  ['2.5.4.7', 'locality'],
  ['2.5.4.8', 'province'],
  ['2.5.4.9', 'street_address'],
  ['2.5.4.17', 'postal_code'],
]);
const CURVE_BITS: ReadonlyMap<string, number> = new Map([
  ['prime256v1', 256],
  ['secp384r1', 384],
  ['secp521r1', 521],
  ['secp224r1', 224],
]);
const HASH_BITS: ReadonlyMap<string, number> = new Map([
  ['SHA-256', 256],
  ['SHA-384', 384],
  ['SHA-512', 512],
]);

/**
 * `pki reissue`'s template, as established: the fields of an intermediate request that make a
 * certificate like `pem` (names, subject, lifetime, path length, permitted DNS domains,
 * signature and key). With `keyRef` (`-type=existing`) the template's key is named instead of
 * its type and size.
 */
export function templateFromCertificate(pem: string, keyRef?: string): Record<string, unknown> {
  let cert: PeculiarCertificate;
  let node: NodeCertificate;
  try {
    cert = new PeculiarCertificate(pem);
    node = new NodeCertificate(pem);
  } catch (err) {
    throw new CliError(`cannot parse the template certificate: ${(err as Error).message}`, 2);
  }
  const names = cert.getExtension(SubjectAlternativeNameExtension)?.names.items ?? [];
  const of = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
  const [cn = ''] = cert.subjectName.getField('2.5.4.3');
  const dns = of('dns');
  const emails = of('email');
  const template: Record<string, unknown> = {
    common_name: cn,
    alt_names: [...dns, ...emails].join(','),
    ip_sans: of('ip').join(','),
    uri_sans: of('url').join(','),
    exclude_cn_from_sans: cn !== '' && !dns.includes(cn) && !emails.includes(cn),
    ttl: `${Math.round((node.validToDate.getTime() - node.validFromDate.getTime()) / 1000)}s`,
    max_path_length: cert.getExtension(BasicConstraintsExtension)?.pathLength ?? -1,
    permitted_dns_domains: permittedDns(cert).join(','),
    ...signature(cert),
  };
  const [serial] = cert.subjectName.getField('2.5.4.5');
  if (serial) template.serial_number = serial;
  for (const [oid, name] of SUBJECT_FIELDS) {
    const values = cert.subjectName.getField(oid);
    if (values.length > 0) template[name] = values;
  }
  if (keyRef !== undefined) {
    template.key_ref = keyRef;
    const skid = cert.getExtension(SubjectKeyIdentifierExtension)?.keyId;
    if (skid) template.skid = skid;
  } else Object.assign(template, keyFields(node));
  return template;
}

/** The template with the caller's K=V pairs over it; a new lifetime or key type drops what it replaces. */
export function withChanges(template: Record<string, unknown>, changes: Record<string, unknown>) {
  const data = { ...template };
  if ('not_after' in changes) delete data.ttl;
  if ('key_type' in changes && changes.key_type !== template.key_type) delete data.key_bits;
  return { ...data, ...changes };
}

function signature(cert: PeculiarCertificate): { signature_bits: number; use_pss: boolean } {
  const algorithm = cert.signatureAlgorithm as { name: string; hash?: { name: string } };
  if (algorithm.name === 'Ed25519') return { signature_bits: 0, use_pss: false };
  return { signature_bits: HASH_BITS.get(algorithm.hash?.name ?? '') ?? -1, use_pss: algorithm.name === 'RSA-PSS' };
}

function keyFields(node: NodeCertificate): { key_type: string; key_bits: number } {
  const key = node.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return { key_type: 'rsa', key_bits: details.modulusLength ?? 0 };
  if (key.asymmetricKeyType === 'ec')
    return { key_type: 'ec', key_bits: CURVE_BITS.get(details.namedCurve ?? '') ?? 0 };
  return { key_type: key.asymmetricKeyType ?? '', key_bits: 0 };
}

function permittedDns(cert: PeculiarCertificate): string[] {
  const ext = cert.extensions.find((e) => e.type === id_ce_nameConstraints);
  if (!ext) return [];
  const constraints = AsnConvert.parse(ext.value, NameConstraints);
  return (constraints.permittedSubtrees ?? []).flatMap((t) => (t.base.dNSName ? [t.base.dNSName] : []));
}
