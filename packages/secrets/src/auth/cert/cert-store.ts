import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** A trusted certificate (a CA, or a client certificate pinned as is) and what a login under it must show. */
export interface CertEntry {
  /** PEM; a bundle of several is allowed. */
  certificate: string;
  display_name: string;
  allowed_names: string[];
  allowed_common_names: string[];
  allowed_dns_sans: string[];
  allowed_email_sans: string[];
  allowed_uri_sans: string[];
  allowed_organizational_units: string[];
  /** `oid:value` (value a glob). */
  required_extensions: string[];
  allowed_metadata_extensions: string[];
  ocsp_enabled: boolean;
  ocsp_ca_certificates: string;
  ocsp_servers_override: string[];
  ocsp_fail_open: boolean;
  ocsp_query_all_servers: boolean;
  token: TokenParams;
}

/** A CRL's revoked serials (decimal), as read back. */
export interface CrlEntry {
  serials: string[];
}

export interface CertConfig {
  disable_binding: boolean;
  enable_identity_alias_metadata: boolean;
  ocsp_cache_size: number;
  role_cache_size: number;
}

export const DEFAULT_CERT_CONFIG: CertConfig = {
  disable_binding: false,
  enable_identity_alias_metadata: false,
  ocsp_cache_size: 100,
  role_cache_size: 200,
};

export const certStore = {
  cert: (s: Storage, name: string) => getJson<CertEntry>(s, `cert/${name.toLowerCase()}`),
  putCert: (s: Storage, name: string, c: CertEntry) => putJson(s, `cert/${name.toLowerCase()}`, c),
  deleteCert: (s: Storage, name: string) => s.delete(`cert/${name.toLowerCase()}`),
  certs: (s: Storage) => s.list('cert/'),
  crl: (s: Storage, name: string) => getJson<CrlEntry>(s, `crls/${name.toLowerCase()}`),
  putCrl: (s: Storage, name: string, c: CrlEntry) => putJson(s, `crls/${name.toLowerCase()}`, c),
  deleteCrl: (s: Storage, name: string) => s.delete(`crls/${name.toLowerCase()}`),
  crls: (s: Storage) => s.list('crls/'),
  config: async (s: Storage): Promise<CertConfig> => ({
    ...DEFAULT_CERT_CONFIG,
    ...(await getJson<CertConfig>(s, 'config')),
  }),
  putConfig: (s: Storage, c: CertConfig) => putJson(s, 'config', c),
};
