import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** `config/root`: the IAM credentials the engine creates users and asks STS with. */
export interface RootConfig {
  access_key: string;
  /** Never shown. */
  secret_key: string;
  region: string;
  iam_endpoint: string;
  sts_endpoint: string;
  sts_region: string;
  max_retries: number;
  username_template: string;
}

/** `config/lease`: the lease of iam_user credentials (seconds). */
export interface LeaseConfig {
  lease: number;
  lease_max: number;
}

export const CREDENTIAL_TYPES = ['iam_user', 'assumed_role', 'federation_token', 'session_token'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export interface AwsEngineRole {
  credential_types: CredentialType[];
  policy_arns: string[];
  /** Compact JSON, '' = none. */
  policy_document: string;
  role_arns: string[];
  iam_groups: string[];
  iam_tags: Record<string, string>;
  session_tags: Record<string, string>;
  external_id: string;
  mfa_serial_number: string;
  default_sts_ttl: number;
  max_sts_ttl: number;
  user_path: string;
  permissions_boundary_arn: string;
}

const roleKey = (name: string) => `role/${name.toLowerCase()}`;

export const awsEngineStore = {
  root: (s: Storage) => getJson<RootConfig>(s, 'config/root'),
  putRoot: (s: Storage, c: RootConfig) => putJson(s, 'config/root', c),
  lease: (s: Storage) => getJson<LeaseConfig>(s, 'config/lease'),
  putLease: (s: Storage, c: LeaseConfig) => putJson(s, 'config/lease', c),
  role: (s: Storage, name: string) => getJson<AwsEngineRole>(s, roleKey(name)),
  putRole: (s: Storage, name: string, r: AwsEngineRole) => putJson(s, roleKey(name), r),
  deleteRole: (s: Storage, name: string) => s.delete(roleKey(name)),
  roles: (s: Storage) => s.list('role/'),
};
