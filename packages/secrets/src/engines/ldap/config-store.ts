import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { DerefAliases } from './ldap-client.js';

export type Schema = 'ldapdir' | 'ad' | 'racf';

/** What the engine sets: a password, or (RACF) a pass phrase in `racfPassPhrase`. */
export type CredentialType = 'password' | 'phrase';

/** The engine's connection settings, under `config`. Field names keep the API's spelling. */
export interface LdapConfig {
  binddn: string;
  bindpass: string;
  /** URLs in the order they are tried (lower-cased on save). */
  url: string[];
  schema: Schema;
  /** Absent in configs saved before the field existed: `password`. */
  credential_type?: CredentialType;
  userdn: string;
  userattr: string;
  upndomain: string;
  connection_timeout: number;
  request_timeout: number;
  starttls: boolean;
  insecure_tls: boolean;
  certificate: string;
  client_tls_cert: string;
  client_tls_key: string;
  tls_min_version: string;
  tls_max_version: string;
  password_policy: string;
  /** 0: not set (64 characters). */
  length: number;
  skip_static_role_import_rotation: boolean;
  /**
   * The password `rotate-root` is setting, saved before the directory changes: binds try it
   * second, so neither a concurrent request nor a crash between the change and the save loses it.
   */
  pending_bindpass?: string;
  /** The password `rotate-root` replaced, tried for binds for 10 minutes after it. */
  last_bindpass: string;
  /** Unix ms of the last `rotate-root`; 0 before the first. */
  last_bind_password_rotation_ms: number;
  /** When searches dereference aliases (set by the ldap auth method only; absent: never). */
  dereference_aliases?: DerefAliases;
}

const KEY = 'config';

export const configStore = {
  get: (storage: Storage) => getJson<LdapConfig>(storage, KEY),
  put: (storage: Storage, config: LdapConfig) => putJson(storage, KEY, config),
  delete: (storage: Storage) => storage.delete(KEY),
};

/** The search attribute of a schema when the config names none. */
export const DEFAULT_USERATTR: Record<Schema, string> = { ldapdir: 'cn', ad: 'userPrincipalName', racf: 'racfid' };
