import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** `config/client`: the credentials and endpoints the method calls AWS with. */
export interface AwsClientConfig {
  access_key: string;
  /** Never shown. */
  secret_key: string;
  /** EC2 API endpoint (DescribeInstances for inferred and ec2 logins). */
  endpoint: string;
  iam_endpoint: string;
  sts_endpoint: string;
  sts_region: string;
  /** When set, iam logins must have signed `X-Vault-AWS-IAM-Server-ID` with this value. */
  iam_server_id_header_value: string;
  /** Extra headers a signed login request may carry besides the ones AWS needs. */
  allowed_sts_header_values: string[];
  max_retries: number;
  /** Send each iam login to the STS endpoint of the region its signature names (without `sts_endpoint`). */
  use_sts_region_from_client: boolean;
  /** Only in memory: the session token of assumed credentials (`config/sts`). */
  session_token?: string;
}

/** `config/sts/:account_id`: the role assumed to look at another account's instances and principals. */
export interface StsRoleEntry {
  sts_role: string;
  external_id: string;
}

export const DEFAULT_CLIENT_CONFIG: AwsClientConfig = {
  access_key: '',
  secret_key: '',
  endpoint: '',
  iam_endpoint: '',
  sts_endpoint: '',
  sts_region: '',
  iam_server_id_header_value: '',
  allowed_sts_header_values: [],
  max_retries: -1,
  use_sts_region_from_client: false,
};

/** `config/identity`: how logins name their identity alias and which metadata they carry. */
export interface AwsIdentityConfig {
  iam_alias: string;
  iam_metadata: string[];
  ec2_alias: string;
  ec2_metadata: string[];
}

export const DEFAULT_IDENTITY_CONFIG: AwsIdentityConfig = {
  iam_alias: 'role_id',
  iam_metadata: ['account_id', 'auth_type'],
  ec2_alias: 'role_id',
  ec2_metadata: ['account_id', 'auth_type'],
};

/** `config/certificate/:name`: a public certificate ec2 identity documents may be signed with. */
export interface AwsCertificate {
  aws_public_cert: string;
  type: 'pkcs7' | 'identity';
}

export interface AwsRole {
  role_id: string;
  auth_type: 'iam' | 'ec2';
  bound_ami_id: string[];
  bound_account_id: string[];
  bound_region: string[];
  bound_vpc_id: string[];
  bound_subnet_id: string[];
  bound_iam_role_arn: string[];
  bound_iam_instance_profile_arn: string[];
  bound_ec2_instance_id: string[];
  bound_iam_principal_arn: string[];
  /** The unique ids (AIDA…/AROA…) of the bound principals when `resolve_aws_unique_ids` resolved them, by ARN. */
  bound_iam_principal_id: string[];
  resolve_aws_unique_ids: boolean;
  inferred_entity_type: string;
  inferred_aws_region: string;
  role_tag: string;
  allow_instance_migration: boolean;
  disallow_reauthentication: boolean;
  /** The HMAC key of role tags (never shown). */
  hmac_key: string;
  token: TokenParams;
}

/** An ec2 login that happened: its nonce, for reauthentication (`identity-accesslist`). */
export interface AccessListEntry {
  role: string;
  client_nonce: string;
  creation_time_ms: number;
  pending_time: string;
  expiration_time_ms: number;
  disallow_reauthentication: boolean;
}

const roleKey = (name: string) => `role/${name.toLowerCase()}`;

export const awsAuthStore = {
  client: async (s: Storage) => ({ ...DEFAULT_CLIENT_CONFIG, ...(await getJson<AwsClientConfig>(s, 'config/client')) }),
  hasClient: async (s: Storage) => (await s.get('config/client')) !== undefined,
  putClient: (s: Storage, c: AwsClientConfig) => putJson(s, 'config/client', c),
  deleteClient: (s: Storage) => s.delete('config/client'),
  identity: async (s: Storage) => ({
    ...DEFAULT_IDENTITY_CONFIG,
    ...(await getJson<AwsIdentityConfig>(s, 'config/identity')),
  }),
  putIdentity: (s: Storage, c: AwsIdentityConfig) => putJson(s, 'config/identity', c),
  certificate: (s: Storage, name: string) => getJson<AwsCertificate>(s, `config/certificate/${name}`),
  putCertificate: (s: Storage, name: string, c: AwsCertificate) => putJson(s, `config/certificate/${name}`, c),
  deleteCertificate: (s: Storage, name: string) => s.delete(`config/certificate/${name}`),
  certificates: (s: Storage) => s.list('config/certificate/'),
  role: (s: Storage, name: string) => getJson<AwsRole>(s, roleKey(name)),
  putRole: (s: Storage, name: string, r: AwsRole) => putJson(s, roleKey(name), r),
  deleteRole: (s: Storage, name: string) => s.delete(roleKey(name)),
  roles: (s: Storage) => s.list('role/'),
  stsRole: (s: Storage, account: string) => getJson<StsRoleEntry>(s, `config/sts/${account}`),
  putStsRole: (s: Storage, account: string, e: StsRoleEntry) => putJson(s, `config/sts/${account}`, e),
  deleteStsRole: (s: Storage, account: string) => s.delete(`config/sts/${account}`),
  stsRoles: (s: Storage) => s.list('config/sts/'),
  accessListEntry: (s: Storage, instanceId: string) => getJson<AccessListEntry>(s, `accesslist/${instanceId}`),
  putAccessListEntry: (s: Storage, instanceId: string, e: AccessListEntry) => putJson(s, `accesslist/${instanceId}`, e),
  deleteAccessListEntry: (s: Storage, instanceId: string) => s.delete(`accesslist/${instanceId}`),
  accessList: (s: Storage) => s.list('accesslist/'),
  /** Deny-listed role tags, keyed by the SHA-256 of the tag (`tagKey`). */
  denyListed: (s: Storage, key: string) => getJson<DenyListEntry>(s, `denylist/${key}`),
  putDenyListed: (s: Storage, key: string, e: DenyListEntry) => putJson(s, `denylist/${key}`, e),
  deleteDenyListed: (s: Storage, key: string) => s.delete(`denylist/${key}`),
  denyList: (s: Storage) => s.list('denylist/'),
  tidyConfig: async (s: Storage, kind: TidyKind) => ({
    ...DEFAULT_TIDY,
    ...(await getJson<TidyConfig>(s, `config/tidy/${kind}`)),
  }),
  putTidyConfig: (s: Storage, kind: TidyKind, c: TidyConfig) => putJson(s, `config/tidy/${kind}`, c),
  deleteTidyConfig: (s: Storage, kind: TidyKind) => s.delete(`config/tidy/${kind}`),
};

/** A role tag no longer honoured, until its own expiry. */
export interface DenyListEntry {
  tag: string;
  creation_time_ms: number;
  expiration_time_ms: number;
}

export type TidyKind = 'identity-accesslist' | 'roletag-denylist';

/** `config/tidy/*`: how long past their expiry entries are kept, and whether the hourly tidy runs. */
export interface TidyConfig {
  safety_buffer: number;
  disable_periodic_tidy: boolean;
}

export const DEFAULT_TIDY: TidyConfig = { safety_buffer: 72 * 3600, disable_periodic_tidy: false };
