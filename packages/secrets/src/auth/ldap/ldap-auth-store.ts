import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { EMPTY_TOKEN_PARAMS, type TokenParams } from '../common/index.js';

/** The method's directory settings (`config`). Field names keep the API's spelling. */
export interface LdapAuthConfig {
  url: string[];
  binddn: string;
  /** Never shown. */
  bindpass: string;
  userdn: string;
  userattr: string;
  userfilter: string;
  upndomain: string;
  discoverdn: boolean;
  groupdn: string;
  groupfilter: string;
  groupattr: string;
  starttls: boolean;
  insecure_tls: boolean;
  certificate: string;
  client_tls_cert: string;
  /** Never shown. */
  client_tls_key: string;
  tls_min_version: string;
  tls_max_version: string;
  deny_null_bind: boolean;
  case_sensitive_names: boolean;
  username_as_alias: boolean;
  anonymous_group_search: boolean;
  use_token_groups: boolean;
  /** When searches dereference aliases (RFC 4511 §4.5.1.3). */
  dereference_aliases: 'never' | 'finding' | 'searching' | 'always';
  /** Page size of the group search (the paged results control); 0 or less: no paging. */
  max_page_size: number;
  /** Seconds. */
  connection_timeout: number;
  request_timeout: number;
  token: TokenParams;
}

export const DEFAULT_USERFILTER = '({{.UserAttr}}={{.Username}})';
export const DEFAULT_GROUPFILTER = '(|(memberUid={{.Username}})(member={{.UserDN}})(uniqueMember={{.UserDN}}))';

export const DEFAULT_CONFIG: LdapAuthConfig = {
  url: ['ldap://127.0.0.1'],
  binddn: '',
  bindpass: '',
  userdn: '',
  userattr: 'cn',
  userfilter: DEFAULT_USERFILTER,
  upndomain: '',
  discoverdn: false,
  groupdn: '',
  groupfilter: DEFAULT_GROUPFILTER,
  groupattr: 'cn',
  starttls: false,
  insecure_tls: false,
  certificate: '',
  client_tls_cert: '',
  client_tls_key: '',
  tls_min_version: 'tls12',
  tls_max_version: 'tls12',
  deny_null_bind: true,
  case_sensitive_names: false,
  username_as_alias: false,
  anonymous_group_search: false,
  use_token_groups: false,
  dereference_aliases: 'never',
  max_page_size: 0,
  connection_timeout: 30,
  request_timeout: 90,
  token: EMPTY_TOKEN_PARAMS,
};

/** `users/:name` and `groups/:name`: policies (and, for users, local groups) by name. */
export interface PolicyMapping {
  policies: string[];
  /** Users only: groups the user is in besides the directory's. */
  groups?: string[];
}

export const ldapAuthStore = {
  config: async (s: Storage): Promise<LdapAuthConfig | undefined> => {
    const stored = await getJson<LdapAuthConfig>(s, 'config');
    return stored && { ...DEFAULT_CONFIG, ...stored };
  },
  putConfig: (s: Storage, c: LdapAuthConfig) => putJson(s, 'config', c),
  mapping: (s: Storage, kind: 'users' | 'groups', name: string) => getJson<PolicyMapping>(s, `${kind}/${name}`),
  putMapping: (s: Storage, kind: 'users' | 'groups', name: string, m: PolicyMapping) =>
    putJson(s, `${kind}/${name}`, m),
  deleteMapping: (s: Storage, kind: 'users' | 'groups', name: string) => s.delete(`${kind}/${name}`),
  mappings: (s: Storage, kind: 'users' | 'groups') => s.list(`${kind}/`),
};
