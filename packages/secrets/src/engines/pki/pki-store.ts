import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { CertificateUrls } from './certificates.js';

/** The mount's root CA: its certificate and key (behind the barrier; the key is never returned after an internal generate). */
export interface CaRecord {
  certificate: string;
  private_key: string;
  serial_number: string;
  expiration: number;
}

/** An issued certificate, kept unless the role says `no_store`; `revocation_time` (Unix seconds) once revoked. */
export interface CertRecord {
  certificate: string;
  revocation_time: number;
}

export interface RoleRecord {
  allowed_domains: string[];
  allow_subdomains: boolean;
  allow_bare_domains: boolean;
  allow_localhost: boolean;
  allow_any_name: boolean;
  allow_ip_sans: boolean;
  enforce_hostnames: boolean;
  ttl: number;
  max_ttl: number;
  generate_lease: boolean;
  no_store: boolean;
  key_type: 'rsa';
  key_bits: number;
}

export const EMPTY_URLS: CertificateUrls = { issuing_certificates: [], crl_distribution_points: [], ocsp_servers: [] };

/** Serials are stored as `certs/<hex>`; the API shows and takes them as colon-separated pairs. */
const certKey = (serial: string) => `certs/${serial.replaceAll(':', '').toLowerCase()}`;

export const pkiStore = {
  ca: (s: Storage) => getJson<CaRecord>(s, 'ca'),
  putCa: (s: Storage, ca: CaRecord) => putJson(s, 'ca', ca),
  deleteCa: (s: Storage) => s.delete('ca'),
  urls: async (s: Storage) => (await getJson<CertificateUrls>(s, 'config/urls')) ?? EMPTY_URLS,
  putUrls: (s: Storage, urls: CertificateUrls) => putJson(s, 'config/urls', urls),
  role: (s: Storage, name: string) => getJson<RoleRecord>(s, `role/${name}`),
  putRole: (s: Storage, name: string, role: RoleRecord) => putJson(s, `role/${name}`, role),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name}`),
  roles: (s: Storage) => s.list('role/'),
  cert: (s: Storage, serial: string) => getJson<CertRecord>(s, certKey(serial)),
  putCert: (s: Storage, serial: string, cert: CertRecord) => putJson(s, certKey(serial), cert),
  certs: (s: Storage) => s.list('certs/'),
};
