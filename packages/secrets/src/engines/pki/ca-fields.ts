import { field } from '../../framework/index.js';

const list = (description: string) => field.commaStrings({ description, default: [] });

/** The subject fields of CA generation, signing and issuing requests. */
export const subjectFields = {
  ou: list('Organizational units of the subject.'),
  organization: list('Organizations of the subject.'),
  country: list('Countries of the subject.'),
  locality: list('Localities of the subject.'),
  province: list('Provinces of the subject.'),
  street_address: list('Street addresses of the subject.'),
  postal_code: list('Postal codes of the subject.'),
  serial_number: field.string({ description: 'The subject’s serialNumber attribute (not the certificate serial).' }),
};

/** Names and validity, for every request that makes a certificate. */
export const certificateFields = {
  common_name: field.string({ description: 'Common name of the subject.', default: '' }),
  alt_names: list('DNS names and emails (subject alternative names).'),
  ip_sans: list('IP addresses (subject alternative names).'),
  uri_sans: list('URIs (subject alternative names).'),
  other_sans: list('Other SANs: <oid>;UTF8:<value> (OtherName entries of the SAN extension).'),
  ttl: field.durationSeconds({ description: 'Validity.', default: 0 }),
  not_after: field.string({ description: 'RFC 3339 end of validity (instead of ttl).', default: '' }),
  not_before_duration: field.durationSeconds({ description: 'Backdating of notBefore (default 30s).', default: 30 }),
  exclude_cn_from_sans: field.bool({ description: 'Keep the common name out of the SANs.', default: false }),
  format: field.enum({
    description: 'pem (default), der or pem_bundle.',
    values: ['pem', 'der', 'pem_bundle'] as const,
    default: 'pem' as const,
  }),
  private_key_format: field.enum({
    description: 'der (default: PEM of the native form with format pem) or pkcs8.',
    values: ['der', 'pkcs8', ''] as const,
    default: 'der' as const,
  }),
  signature_bits: field.int({ description: 'Hash bits of the signature (0: by key).', default: 0 }),
  use_pss: field.bool({ description: 'RSA issuers: sign with PSS.', default: false }),
  ...subjectFields,
};

/** What a new CA (root or intermediate CSR) takes besides the certificate fields. */
export const caFields = {
  ...certificateFields,
  key_type: field.enum({
    description: 'rsa (default), ec or ed25519.',
    values: ['rsa', 'ec', 'ed25519'] as const,
    default: 'rsa' as const,
  }),
  key_bits: field.int({ description: 'RSA 2048 (default)/3072/4096/8192; EC 224/256 (default)/384/521.', default: 0 }),
  max_path_length: field.int({ description: 'Path length constraint (-1: none).', default: -1 }),
  permitted_dns_domains: list('DNS names the CA may issue for (Name Constraints, critical).'),
  issuer_name: field.string({ description: 'Name of the new issuer.', default: '' }),
  key_name: field.string({ description: 'Name of the new key.', default: '' }),
  key_ref: field.string({ description: 'type existing: the key to use.', default: '' }),
  managed_key_name: field.string({ description: 'type kms: the managed key (sys/managed-keys) by name.' }),
  managed_key_id: field.string({ description: 'type kms: the managed key by its UUID.' }),
  add_basic_constraints: field.bool({
    description: 'Intermediate CSR: add Basic Constraints CA true.',
    default: false,
  }),
};
