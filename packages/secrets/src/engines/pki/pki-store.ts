import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { PkiKeyType } from './keys.js';
import type { CertificateUrls } from './x509.js';

/** A key of the mount (`keys/*`): behind the barrier, answered only once by an `exported` generate. */
export interface KeyRecord {
  key_id: string;
  key_name: string;
  key_type: PkiKeyType;
  key_bits: number;
  /** PKCS#8 PEM; '' for a managed key. */
  private_key: string;
  /** A key in an HSM or key service (`kms`): the managed key's id and name, and its public key (SPKI PEM). */
  managed_key_id?: string;
  managed_key_name?: string;
  public_key?: string;
}

/** An issuer's own AIA URLs (`issuer/:ref`), which replace `config/urls` for what the issuer signs. */
export interface IssuerAia extends CertificateUrls {
  /** The URLs may hold `{{issuer_id}}`, `{{cluster_path}}` and `{{cluster_aia_path}}` (from `config/cluster`). */
  enable_aia_url_templating: boolean;
}

/** An issuer of the mount (`issuers/*`): a CA certificate, with the key that signs for it when the mount has it. */
export interface IssuerRecord {
  issuer_id: string;
  issuer_name: string;
  /** '' when the mount holds no key for this certificate (an imported parent). */
  key_id: string;
  certificate: string;
  serial_number: string;
  /** Unix seconds. */
  expiration: number;
  leaf_not_after_behavior: 'err' | 'truncate' | 'permit';
  usage: string[];
  manual_chain: string[];
  revoked: boolean;
  revocation_time: number;
  /** Set through `issuer/:ref`; absent: the mount's `config/urls`. */
  aia?: IssuerAia;
}

/** An issued certificate, kept unless the role says `no_store`; `revocation_time` (Unix seconds) once revoked. */
export interface CertRecord {
  certificate: string;
  revocation_time: number;
  /** The issuer that signed it ('' for records of earlier releases: the default issuer). */
  issuer_id?: string;
  /** Unix seconds. */
  expiration?: number;
}

/** A CRL as last built for an issuer. */
export interface CrlRecord {
  der: string;
  number: number;
  /** Unix ms of the build; revocations after it go to the delta CRL. */
  built_at_ms: number;
  next_update_ms: number;
}

export interface CrlConfig {
  expiry: number;
  disable: boolean;
  ocsp_disable: boolean;
  ocsp_expiry: number;
  auto_rebuild: boolean;
  auto_rebuild_grace_period: number;
  enable_delta: boolean;
  delta_rebuild_interval: number;
  /**
   * Kept as set, as established; this server is one cluster, so the unified CRL and OCSP are the
   * local ones (no other cluster's revocations to merge).
   */
  cross_cluster_revocation: boolean;
  unified_crl: boolean;
  unified_crl_on_existing_paths: boolean;
}

export const DEFAULT_CRL_CONFIG: CrlConfig = {
  expiry: 72 * 3600,
  disable: false,
  ocsp_disable: false,
  ocsp_expiry: 12 * 3600,
  auto_rebuild: false,
  auto_rebuild_grace_period: 12 * 3600,
  enable_delta: false,
  delta_rebuild_interval: 15 * 60,
  cross_cluster_revocation: false,
  unified_crl: false,
  unified_crl_on_existing_paths: false,
};

/** The mount's `config/urls`: templates in them are filled per issuer when `enable_templating` is set. */
export interface MountUrls extends CertificateUrls {
  enable_templating?: boolean;
}

export const EMPTY_URLS: MountUrls = { issuing_certificates: [], crl_distribution_points: [], ocsp_servers: [] };

/** Serials are stored as lower-case hex without separators; the API shows them as colon-separated pairs. */
export const serialKey = (serial: string) => serial.replaceAll(':', '').replaceAll('-', '').toLowerCase();

/** The mount's records. Stateless: every call reads or writes the mount's storage. */
export const pkiStore = {
  key: (s: Storage, id: string) => getJson<KeyRecord>(s, `config/key/${id}`),
  putKey: (s: Storage, key: KeyRecord) => putJson(s, `config/key/${key.key_id}`, key),
  deleteKey: (s: Storage, id: string) => s.delete(`config/key/${id}`),
  keyIds: (s: Storage) => s.list('config/key/'),
  issuer: (s: Storage, id: string) => getJson<IssuerRecord>(s, `config/issuer/${id}`),
  putIssuer: (s: Storage, issuer: IssuerRecord) => putJson(s, `config/issuer/${issuer.issuer_id}`, issuer),
  deleteIssuer: (s: Storage, id: string) => s.delete(`config/issuer/${id}`),
  issuerIds: (s: Storage) => s.list('config/issuer/'),
  issuersConfig: async (s: Storage) =>
    (await getJson<{ default: string; default_follows_latest_issuer: boolean }>(s, 'config/issuers')) ?? {
      default: '',
      default_follows_latest_issuer: false,
    },
  putIssuersConfig: (s: Storage, c: { default: string; default_follows_latest_issuer: boolean }) =>
    putJson(s, 'config/issuers', c),
  keysConfig: async (s: Storage) => (await getJson<{ default: string }>(s, 'config/keys')) ?? { default: '' },
  putKeysConfig: (s: Storage, c: { default: string }) => putJson(s, 'config/keys', c),
  urls: async (s: Storage) => (await getJson<MountUrls>(s, 'config/urls')) ?? EMPTY_URLS,
  putUrls: (s: Storage, urls: MountUrls) => putJson(s, 'config/urls', urls),
  crlConfig: async (s: Storage) => ({ ...DEFAULT_CRL_CONFIG, ...(await getJson<Partial<CrlConfig>>(s, 'config/crl')) }),
  putCrlConfig: (s: Storage, c: CrlConfig) => putJson(s, 'config/crl', c),
  crl: (s: Storage, issuerId: string) => getJson<CrlRecord>(s, `crls/${issuerId}`),
  putCrl: (s: Storage, issuerId: string, crl: CrlRecord) => putJson(s, `crls/${issuerId}`, crl),
  deleteCrl: (s: Storage, issuerId: string) => s.delete(`crls/${issuerId}`),
  cert: (s: Storage, serial: string) => getJson<CertRecord>(s, `certs/${serialKey(serial)}`),
  putCert: (s: Storage, serial: string, cert: CertRecord) => putJson(s, `certs/${serialKey(serial)}`, cert),
  deleteCert: (s: Storage, serial: string) => s.delete(`certs/${serialKey(serial)}`),
  certs: (s: Storage) => s.list('certs/'),
  markRevoked: (s: Storage, serial: string) => putJson(s, `revoked/${serialKey(serial)}`, {}),
  unmarkRevoked: (s: Storage, serial: string) => s.delete(`revoked/${serialKey(serial)}`),
  revoked: (s: Storage) => s.list('revoked/'),
};
