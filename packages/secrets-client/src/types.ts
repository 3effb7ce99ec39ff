/** The `auth` block of a login or token response. */
export interface SecretAuth {
  client_token: string;
  accessor: string;
  policies: string[] | null;
  token_policies?: string[] | null;
  identity_policies?: string[] | null;
  metadata: Record<string, string> | null;
  lease_duration: number;
  renewable: boolean;
  entity_id?: string;
  token_type?: string;
  orphan?: boolean;
  num_uses?: number;
}

/** The standard response envelope. */
export interface Secret<D = Record<string, unknown>> {
  request_id: string;
  lease_id: string;
  lease_duration: number;
  renewable: boolean;
  data: D | null;
  warnings: string[] | null;
  auth: SecretAuth | null;
  wrap_info: WrapInfo | null;
}

/** `wrap_info` of a response the server wrapped (the client asked with `wrapTtl`). */
export interface WrapInfo {
  /** The single-use token that unwraps the response (`Client.unwrap`). */
  token: string;
  accessor: string;
  ttl: number;
  creation_time: string;
  creation_path: string;
  /** Accessor of the token the wrapped response carries, if it carries one. */
  wrapped_accessor?: string;
}

/** `sys/seal-status` and `sys/unseal` (raw body). */
export interface SealStatus {
  type: string;
  initialized: boolean;
  sealed: boolean;
  t: number;
  n: number;
  progress: number;
  nonce: string;
  version: string;
  build_date?: string;
  migration: boolean;
  recovery_seal: boolean;
  /** `shamir` with an auto seal (then `t`, `n` and `progress` count recovery shares). */
  recovery_seal_type?: string;
  storage_type?: string;
  cluster_name?: string;
  cluster_id?: string;
}

/** `PUT sys/init` input: `secret_*` for a Shamir seal, `recovery_*` for an auto seal. */
export interface InitRequest {
  secret_shares?: number;
  secret_threshold?: number;
  recovery_shares?: number;
  recovery_threshold?: number;
}

/** `PUT sys/init` answer: the key shares (hex and base64), recovery shares with an auto seal, and the root token. */
export interface InitResponse {
  keys: string[];
  keys_base64: string[];
  recovery_keys?: string[];
  recovery_keys_base64?: string[];
  root_token: string;
}

/** One mount as `sys/mounts` and `sys/auth` describe it. */
export interface MountInfo {
  type: string;
  description: string;
  accessor: string;
  local: boolean;
  seal_wrap: boolean;
  options: Record<string, string> | null;
  config: { default_lease_ttl: number; max_lease_ttl: number; force_no_cache?: boolean };
  plugin_version?: string;
}

/** Body of `sys/mounts/:path` and `sys/auth/:path` (enable). */
export interface EnableMountInput {
  type: string;
  description?: string;
  config?: { default_lease_ttl?: string; max_lease_ttl?: string };
  options?: Record<string, string>;
  local?: boolean;
  seal_wrap?: boolean;
}

/** Body of `sys/mounts/:path/tune`. */
export interface TuneMountInput {
  description?: string;
  default_lease_ttl?: string;
  max_lease_ttl?: string;
  options?: Record<string, string>;
}

/** `auth/token/create` input (wire names). */
export interface TokenCreateInput {
  policies?: string[];
  meta?: Record<string, string>;
  no_parent?: boolean;
  no_default_policy?: boolean;
  renewable?: boolean;
  ttl?: string;
  explicit_max_ttl?: string;
  period?: string;
  display_name?: string;
  num_uses?: number;
  type?: string;
  id?: string;
}

/** KV version 2 version metadata (a write's answer, and `data.metadata` of a read). */
export interface KvVersionMetadata {
  created_time: string;
  custom_metadata: Record<string, string> | null;
  deletion_time: string;
  destroyed: boolean;
  version: number;
}

/** `GET <mount>/data/:path` data. */
export interface KvV2Data {
  data: Record<string, unknown> | null;
  metadata: KvVersionMetadata;
}

/** `GET <mount>/metadata/:path` data. */
export interface KvMetadata {
  cas_required: boolean;
  created_time: string;
  current_version: number;
  custom_metadata: Record<string, string> | null;
  delete_version_after: string;
  max_versions: number;
  oldest_version: number;
  updated_time: string;
  versions: Record<string, { created_time: string; deletion_time: string; destroyed: boolean }>;
}

/** `?help=1` answer (raw body). */
export interface HelpResponse {
  help: string;
  see_also: unknown;
  openapi?: unknown;
}

/** `sys/rekey/init` status. */
export interface RekeyStatus {
  nonce: string;
  started: boolean;
  t: number;
  n: number;
  progress: number;
  required: number;
  verification_required: boolean;
  verification_nonce?: string;
  complete?: undefined;
}

export interface RekeyStartRequest {
  secret_shares: number;
  secret_threshold: number;
  require_verification?: boolean;
}

/** The answer to the share that completes a rekey: the new shares, shown once. */
export interface RekeyResult {
  nonce: string;
  complete: true;
  keys: string[];
  keys_base64: string[];
  verification_required: boolean;
  verification_nonce?: string;
}

/** `sys/rekey/verify` status. */
export interface RekeyVerifyStatus {
  nonce: string;
  started: boolean;
  t: number;
  n: number;
  progress: number;
  complete?: undefined;
}

/** `sys/generate-root/attempt` status. */
export interface GenerateRootStatus {
  started: boolean;
  nonce: string;
  progress: number;
  required: number;
  complete: boolean;
  encoded_token: string;
  encoded_root_token: string;
  otp: string;
  otp_length: number;
}
