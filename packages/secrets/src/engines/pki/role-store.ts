import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A role (`roles/:name`), in the established field names. */
export interface RoleRecord {
  ttl: number;
  max_ttl: number;
  not_before_duration: number;
  allow_localhost: boolean;
  allowed_domains: string[];
  /** `allowed_domains` may hold identity templates (`{{identity.entity.aliases.<accessor>.name}}`, …). */
  allowed_domains_template: boolean;
  allow_bare_domains: boolean;
  allow_subdomains: boolean;
  allow_glob_domains: boolean;
  allow_wildcard_certificates: boolean;
  allow_any_name: boolean;
  enforce_hostnames: boolean;
  allow_ip_sans: boolean;
  allowed_uri_sans: string[];
  allowed_other_sans: string[];
  server_flag: boolean;
  client_flag: boolean;
  code_signing_flag: boolean;
  email_protection_flag: boolean;
  key_type: 'rsa' | 'ec' | 'ed25519' | 'any';
  key_bits: number;
  signature_bits: number;
  use_pss: boolean;
  key_usage: string[];
  ext_key_usage: string[];
  ext_key_usage_oids: string[];
  use_csr_common_name: boolean;
  use_csr_sans: boolean;
  ou: string[];
  organization: string[];
  country: string[];
  locality: string[];
  province: string[];
  street_address: string[];
  postal_code: string[];
  generate_lease: boolean;
  no_store: boolean;
  require_cn: boolean;
  policy_identifiers: string[];
  basic_constraints_valid_for_non_ca: boolean;
  cn_validations: string[];
  issuer_ref: string;
}

export const DEFAULT_ROLE: RoleRecord = {
  ttl: 0,
  max_ttl: 0,
  not_before_duration: 30,
  allow_localhost: true,
  allowed_domains: [],
  allowed_domains_template: false,
  allow_bare_domains: false,
  allow_subdomains: false,
  allow_glob_domains: false,
  allow_wildcard_certificates: true,
  allow_any_name: false,
  enforce_hostnames: true,
  allow_ip_sans: true,
  allowed_uri_sans: [],
  allowed_other_sans: [],
  server_flag: true,
  client_flag: true,
  code_signing_flag: false,
  email_protection_flag: false,
  key_type: 'rsa',
  key_bits: 2048,
  signature_bits: 0,
  use_pss: false,
  key_usage: ['DigitalSignature', 'KeyAgreement', 'KeyEncipherment'],
  ext_key_usage: [],
  ext_key_usage_oids: [],
  use_csr_common_name: true,
  use_csr_sans: true,
  ou: [],
  organization: [],
  country: [],
  locality: [],
  province: [],
  street_address: [],
  postal_code: [],
  generate_lease: false,
  no_store: false,
  require_cn: true,
  policy_identifiers: [],
  basic_constraints_valid_for_non_ca: false,
  cn_validations: ['email', 'hostname'],
  issuer_ref: 'default',
};

export const roleStore = {
  get: async (s: Storage, name: string): Promise<RoleRecord | undefined> => {
    const stored = await getJson<Partial<RoleRecord>>(s, `role/${name}`);
    return stored && { ...DEFAULT_ROLE, ...stored };
  },
  put: (s: Storage, name: string, role: RoleRecord) => putJson(s, `role/${name}`, role),
  delete: (s: Storage, name: string) => s.delete(`role/${name}`),
  list: (s: Storage) => s.list('role/'),
};
