import { getJson, putJson, type Storage } from '../../../logical/storage.js';

/** `config/acme`, in the established names (the subset served here). */
export interface AcmeConfig {
  enabled: boolean;
  /** `sign-verbatim` (default), `role:<name>` or `forbid`: what the directories without a role in their path use. */
  default_directory_policy: string;
  /** Issuer references ACME may sign with, or `*`. */
  allowed_issuers: string[];
  /** Roles with a directory of their own (`roles/:role/acme/`), or `*`. */
  allowed_roles: string[];
  /** Whether certificates get the role's extended key usages; otherwise serverAuth only. */
  allow_role_ext_key_usage: boolean;
  /** `host:port` of the DNS server validations ask; empty: the system's resolvers. */
  dns_resolver: string;
  eab_policy: 'not-required' | 'new-account-required' | 'always-required';
}

export const DEFAULT_ACME_CONFIG: AcmeConfig = {
  enabled: false,
  default_directory_policy: 'sign-verbatim',
  allowed_issuers: ['*'],
  allowed_roles: ['*'],
  allow_role_ext_key_usage: false,
  dns_resolver: '',
  eab_policy: 'not-required',
};

export interface AcmeAccount {
  id: string;
  /** The directory (`acme/`, `roles/web/acme/`, …) the account was made in and belongs to; absent: `acme/`. */
  directory?: string;
  jwk: Record<string, unknown>;
  thumbprint: string;
  /** `revoked` by an operator (`acme/mgmt/account/keyid/:keyid`), `deactivated` by its holder. */
  status: 'valid' | 'deactivated' | 'revoked';
  contact: string[];
  /** RFC 3339; absent on accounts made before it was kept. */
  created_time?: string;
  /** RFC 3339, when revoked or deactivated. */
  revoked_time?: string;
  /** RFC 3339: the latest expiry of its certificates (or certificate-less orders) that tidy has seen. */
  max_cert_expiry?: string;
  /** The external account binding key it was bound with, if any. */
  eab_id?: string;
}

/** An external account binding key (RFC 8555 7.3.4), good for one new account. */
export interface AcmeEab {
  id: string;
  /** The directory whose new accounts it binds; absent: `acme/`. */
  directory?: string;
  /** base64url HMAC-SHA-256 key. */
  key: string;
  created_on: string;
}

/** A DNS name (`*.` for a wildcard, in orders) or an IP address (RFC 8738). */
export interface AcmeIdentifier {
  type: 'dns' | 'ip';
  value: string;
}

/** The challenge types offered (RFC 8555 8.3, 8.4; RFC 8737). */
export type AcmeChallengeType = 'http-01' | 'dns-01' | 'tls-alpn-01';

export interface AcmeChallenge {
  type: AcmeChallengeType;
  token: string;
  status: 'pending' | 'processing' | 'valid' | 'invalid';
  validated?: string;
  error?: { type: string; detail: string };
}

export interface AcmeAuthorization {
  id: string;
  account_id: string;
  /** The name to validate: a wildcard's without its `*.` (RFC 8555 7.1.4). */
  identifier: AcmeIdentifier;
  status: 'pending' | 'valid' | 'invalid' | 'deactivated';
  expires: string;
  challenges: AcmeChallenge[];
  /** Set for a wildcard identifier, which only dns-01 can validate. */
  wildcard?: boolean;
}

export interface AcmeOrder {
  id: string;
  account_id: string;
  status: 'pending' | 'ready' | 'processing' | 'valid' | 'invalid';
  expires: string;
  identifiers: AcmeIdentifier[];
  authorization_ids: string[];
  certificate?: string;
  /** The issued certificate's serial (`aa:bb:…`) and expiry (RFC 3339), once valid. */
  cert_serial_number?: string;
  cert_expiry?: string;
}

export const acmeStore = {
  config: async (s: Storage): Promise<AcmeConfig> => ({
    ...DEFAULT_ACME_CONFIG,
    ...(await getJson<Partial<AcmeConfig>>(s, 'config/acme')),
  }),
  putConfig: (s: Storage, c: AcmeConfig) => putJson(s, 'config/acme', c),
  cluster: async (s: Storage) =>
    (await getJson<{ path: string; aia_path: string }>(s, 'config/cluster')) ?? { path: '', aia_path: '' },
  putCluster: (s: Storage, c: { path: string; aia_path: string }) => putJson(s, 'config/cluster', c),
  account: (s: Storage, id: string) => getJson<AcmeAccount>(s, `acme/accounts/${id}`),
  putAccount: (s: Storage, a: AcmeAccount) => putJson(s, `acme/accounts/${a.id}`, a),
  accountIds: (s: Storage) => s.list('acme/accounts/'),
  accountByThumbprint: (s: Storage, thumbprint: string) => getJson<{ id: string }>(s, `acme/thumbprints/${thumbprint}`),
  putThumbprint: (s: Storage, thumbprint: string, id: string) => putJson(s, `acme/thumbprints/${thumbprint}`, { id }),
  order: (s: Storage, id: string) => getJson<AcmeOrder>(s, `acme/orders/${id}`),
  putOrder: (s: Storage, o: AcmeOrder) => putJson(s, `acme/orders/${o.id}`, o),
  /** Marks `orderId` as one of the account's, for its orders list (RFC 8555 7.1.2.1). */
  putAccountOrder: (s: Storage, accountId: string, orderId: string) =>
    putJson(s, `acme/account-orders/${accountId}/${orderId}`, {}),
  accountOrderIds: (s: Storage, accountId: string) => s.list(`acme/account-orders/${accountId}/`),
  authz: (s: Storage, id: string) => getJson<AcmeAuthorization>(s, `acme/authz/${id}`),
  eab: (s: Storage, id: string) => getJson<AcmeEab>(s, `acme/eab/${id}`),
  putEab: (s: Storage, e: AcmeEab) => putJson(s, `acme/eab/${e.id}`, e),
  deleteEab: (s: Storage, id: string) => s.delete(`acme/eab/${id}`),
  eabIds: (s: Storage) => s.list('acme/eab/'),
  /** Which account a certificate was issued to (hex serial), for revoke-cert. */
  certOwner: (s: Storage, serialHex: string) => getJson<{ account_id: string }>(s, `acme/certs/${serialHex}`),
  putCertOwner: (s: Storage, serialHex: string, accountId: string) =>
    putJson(s, `acme/certs/${serialHex}`, { account_id: accountId }),
  putAuthz: (s: Storage, a: AcmeAuthorization) => putJson(s, `acme/authz/${a.id}`, a),
};
