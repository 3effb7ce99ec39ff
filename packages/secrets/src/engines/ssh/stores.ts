import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** The mount's CA (`config/ca`): an OpenSSH key pair. */
export interface CaKeys {
  /** `ssh-rsa AAAA…`, as published at `public_key`. */
  public_key: string;
  /** PEM (PKCS#8 or OpenSSH) of the private key. */
  private_key: string;
}

/** A role (`roles/:name`); field names keep the API's spelling. */
export interface SshRole {
  key_type: 'otp' | 'ca';
  default_user: string;
  default_user_template: boolean;
  allowed_users: string;
  allowed_users_template: boolean;
  /** OTP roles. */
  cidr_list: string;
  exclude_cidr_list: string;
  port: number;
  /** CA roles. */
  allowed_domains: string;
  allowed_domains_template: boolean;
  allow_bare_domains: boolean;
  allow_subdomains: boolean;
  /** Absent on roles written before it existed (read as false). */
  allow_commas_in_identity_templates?: boolean;
  allow_user_certificates: boolean;
  allow_host_certificates: boolean;
  allow_user_key_ids: boolean;
  key_id_format: string;
  allowed_critical_options: string;
  allowed_extensions: string;
  default_critical_options: Record<string, string>;
  default_extensions: Record<string, string>;
  default_extensions_template: boolean;
  allowed_user_key_lengths: Record<string, number[]>;
  algorithm_signer: string;
  /** Seconds; 0: the mount's. */
  ttl: number;
  max_ttl: number;
  not_before_duration: number;
}

/** An issued one-time password, stored under the hash of its text. */
export interface OtpEntry {
  username: string;
  ip: string;
  role_name: string;
}

export const caStore = {
  get: (storage: Storage) => getJson<CaKeys>(storage, 'config/ca_keys'),
  put: (storage: Storage, keys: CaKeys) => putJson(storage, 'config/ca_keys', keys),
  delete: (storage: Storage) => storage.delete('config/ca_keys'),
};

export const roles = {
  get: (storage: Storage, name: string) => getJson<SshRole>(storage, `roles/${name}`),
  put: (storage: Storage, name: string, role: SshRole) => putJson(storage, `roles/${name}`, role),
  delete: (storage: Storage, name: string) => storage.delete(`roles/${name}`),
  list: (storage: Storage) => storage.list('roles/'),
};

export const zeroAddress = {
  get: async (storage: Storage) => (await getJson<{ roles: string[] }>(storage, 'config/zeroaddress'))?.roles,
  put: (storage: Storage, list: string[]) => putJson(storage, 'config/zeroaddress', { roles: list }),
  delete: (storage: Storage) => storage.delete('config/zeroaddress'),
};

export const otps = {
  get: (storage: Storage, digest: string) => getJson<OtpEntry>(storage, `otp/${digest}`),
  put: (storage: Storage, digest: string, entry: OtpEntry) => putJson(storage, `otp/${digest}`, entry),
  delete: (storage: Storage, digest: string) => storage.delete(`otp/${digest}`),
};
