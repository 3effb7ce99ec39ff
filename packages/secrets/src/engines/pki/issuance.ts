import { InvalidRequestError } from '../../logical/errors.js';
import type { PkiDeps } from './deps.js';
import { parsePrivateKey } from './keys.js';
import type { IssuerRecord } from './pki-store.js';
import type { RoleRecord } from './role-store.js';
import { type JsonName, x509 } from './x509.js';

/** Subject fields a request or role may give, in the established names. */
export interface SubjectFields {
  common_name: string;
  ou: string[];
  organization: string[];
  country: string[];
  locality: string[];
  province: string[];
  street_address: string[];
  postal_code: string[];
  serial_number?: string;
}

/** A subject in Go's `pkix.Name` order (C, ST, L, street, postalCode, O, OU, CN, serialNumber). */
export function subjectOf(f: SubjectFields): JsonName {
  const parts: [string, string[]][] = [
    ['C', f.country],
    ['ST', f.province],
    ['L', f.locality],
    ['2.5.4.9', f.street_address],
    ['2.5.4.17', f.postal_code],
    ['O', f.organization],
    ['OU', f.ou],
    ['CN', f.common_name ? [f.common_name] : []],
    ['2.5.4.5', f.serial_number ? [f.serial_number] : []],
  ];
  return parts.filter(([, values]) => values.length > 0).map(([type, values]) => ({ [type]: values }));
}

const KEY_USAGES = new Map<string, number>([
  ['digitalsignature', x509.KeyUsageFlags.digitalSignature],
  ['contentcommitment', x509.KeyUsageFlags.nonRepudiation],
  ['keyencipherment', x509.KeyUsageFlags.keyEncipherment],
  ['dataencipherment', x509.KeyUsageFlags.dataEncipherment],
  ['keyagreement', x509.KeyUsageFlags.keyAgreement],
  ['certsign', x509.KeyUsageFlags.keyCertSign],
  ['crlsign', x509.KeyUsageFlags.cRLSign],
  ['encipheronly', x509.KeyUsageFlags.encipherOnly],
  ['decipheronly', x509.KeyUsageFlags.decipherOnly],
]);
const EXT_KEY_USAGES = new Map<string, string>([
  ['any', '2.5.29.37.0'],
  ['serverauth', '1.3.6.1.5.5.7.3.1'],
  ['clientauth', '1.3.6.1.5.5.7.3.2'],
  ['codesigning', '1.3.6.1.5.5.7.3.3'],
  ['emailprotection', '1.3.6.1.5.5.7.3.4'],
  ['ipsecendsystem', '1.3.6.1.5.5.7.3.5'],
  ['ipsectunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsecuser', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocspsigning', '1.3.6.1.5.5.7.3.9'],
]);

/** The key usage flags and extended key usage OIDs of a role. */
export function usagesOf(role: RoleRecord): { keyUsage: number; extKeyUsage: string[] } {
  let keyUsage = 0;
  for (const name of role.key_usage) {
    const flag = KEY_USAGES.get(name.toLowerCase().replace(/[^a-z]/g, ''));
    if (flag === undefined) throw new InvalidRequestError(`unknown key usage ${name}`);
    keyUsage |= flag;
  }
  const ext = new Set<string>();
  if (role.server_flag) ext.add('1.3.6.1.5.5.7.3.1');
  if (role.client_flag) ext.add('1.3.6.1.5.5.7.3.2');
  if (role.code_signing_flag) ext.add('1.3.6.1.5.5.7.3.3');
  if (role.email_protection_flag) ext.add('1.3.6.1.5.5.7.3.4');
  for (const name of role.ext_key_usage) {
    const oid = EXT_KEY_USAGES.get(name.toLowerCase().replace(/[^a-z]/g, ''));
    if (!oid) throw new InvalidRequestError(`unknown ext key usage ${name}`);
    ext.add(oid);
  }
  for (const oid of role.ext_key_usage_oids) ext.add(oid);
  return { keyUsage, extKeyUsage: [...ext] };
}

/**
 * The validity of a new certificate, as established: `not_after`, or the TTL asked (else the
 * role's, else the mount's), cut to the max TTL with a warning; past the issuer's expiry an error,
 * or cut or allowed as the issuer's `leaf_not_after_behavior` says.
 */
export function validityOf(
  d: PkiDeps,
  o: { ttl: number; notAfter: string; roleTtl: number; roleMaxTtl: number; notBeforeDuration: number },
  issuer: IssuerRecord | undefined,
): { notBefore: Date; notAfter: Date; warnings: string[] } {
  const nowMs = d.clock.now();
  const warnings: string[] = [];
  let notAfterMs: number;
  if (o.notAfter) {
    notAfterMs = Date.parse(o.notAfter);
    if (Number.isNaN(notAfterMs))
      throw new InvalidRequestError('unable to parse not_after: use RFC 3339 (YYYY-MM-ddTHH:MM:SSZ)');
  } else {
    const max = o.roleMaxTtl || d.maxTtlSeconds();
    let ttl = o.ttl || o.roleTtl || d.defaultTtlSeconds();
    if (ttl > max) {
      warnings.push(`TTL "${ttl}s" is longer than permitted maxTTL "${max}s", so maxTTL is being used`);
      ttl = max;
    }
    notAfterMs = nowMs + ttl * 1000;
  }
  if (issuer && notAfterMs > issuer.expiration * 1000) {
    if (issuer.leaf_not_after_behavior === 'truncate') notAfterMs = issuer.expiration * 1000;
    else if (issuer.leaf_not_after_behavior === 'err')
      throw new InvalidRequestError(
        `cannot satisfy request, as TTL would result in notAfter of ${new Date(notAfterMs).toISOString()} that is beyond the expiration of the CA certificate at ${new Date(issuer.expiration * 1000).toISOString()}`,
      );
  }
  return { notBefore: new Date(nowMs - o.notBeforeDuration * 1000), notAfter: new Date(notAfterMs), warnings };
}

export type CertFormat = 'pem' | 'der' | 'pem_bundle';

const der64 = (pem: string) => Buffer.from(new x509.X509Certificate(pem).rawData).toString('base64');

/** The private key as the answer gives it: native PEM (PKCS#1, SEC 1), PKCS#8 PEM, or base64 DER. */
export function formatPrivateKey(pkcs8Pem: string, format: CertFormat, privateKeyFormat: string): string {
  const key = parsePrivateKey(pkcs8Pem);
  const native = key.asymmetricKeyType === 'rsa' ? 'pkcs1' : key.asymmetricKeyType === 'ec' ? 'sec1' : 'pkcs8';
  const type = privateKeyFormat === 'pkcs8' ? 'pkcs8' : native;
  if (format === 'der') return (key.export({ format: 'der', type: type as 'pkcs8' }) as Buffer).toString('base64');
  return key
    .export({ format: 'pem', type: type as 'pkcs8' })
    .toString()
    .trim();
}

/**
 * The certificate fields of an answer in `format`: PEM, base64 DER, or a PEM bundle whose
 * `certificate` also holds the key (when answered) and the issuing chain.
 */
export function formatIssued(
  format: CertFormat,
  o: { certificate: string; chain: string[]; privateKey?: string; privateKeyFormat: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const key = o.privateKey ? formatPrivateKey(o.privateKey, format, o.privateKeyFormat) : undefined;
  if (format === 'der') {
    out.certificate = der64(o.certificate);
    out.issuing_ca = o.chain[0] ? der64(o.chain[0]) : '';
    out.ca_chain = o.chain.map(der64);
  } else {
    out.certificate =
      format === 'pem_bundle' ? [key, o.certificate, ...o.chain].filter(Boolean).join('\n') : o.certificate;
    out.issuing_ca = o.chain[0] ?? '';
    out.ca_chain = o.chain;
  }
  if (key) {
    out.private_key = key;
    const type = parsePrivateKey(o.privateKey ?? '').asymmetricKeyType;
    out.private_key_type = type === 'ed25519' ? 'ed25519' : type;
  }
  return out;
}
