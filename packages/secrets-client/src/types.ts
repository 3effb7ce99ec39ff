// The JSON shapes the secrets server answers with: the one source of them. The server builds
// its answers typed by these (`packages/secrets`), and `wire-shapes.ts` lists each one's keys
// for the test that compares real answers with them, so a change on either side is noticed.

/** The `auth` block of a login or token response. */
export interface SecretAuth {
  client_token: string;
  accessor: string;
  policies: string[];
  token_policies: string[];
  identity_policies?: string[];
  metadata: Record<string, string> | null;
  lease_duration: number;
  renewable: boolean;
  entity_id: string;
  token_type: 'service' | 'batch';
  orphan: boolean;
  num_uses: number;
  mfa_requirement: null;
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
  /** RFC 3339. */
  creation_time: string;
  /** The request path whose response was wrapped. */
  creation_path: string;
  /** Accessor of the token the wrapped response carries, if it carries one. */
  wrapped_accessor?: string;
}

/** What the core knows of its seal: `sys/seal-status` without the build facts. */
export interface CoreSealStatus {
  /** `shamir`, or the configured auto seal's stanza name. */
  type: string;
  initialized: boolean;
  sealed: boolean;
  t: number;
  n: number;
  progress: number;
  nonce: string;
  /** A seal migration is pending: unseal with the old seal's shares and `migrate`. */
  migration: boolean;
  /** An auto seal: `t`, `n` and `progress` count recovery shares. */
  recovery_seal: boolean;
  /** `shamir` with an auto seal (then `t`, `n` and `progress` count recovery shares). */
  recovery_seal_type?: 'shamir';
  cluster_name?: string;
  cluster_id?: string;
}

/** `sys/seal-status` and `sys/unseal` (raw body). */
export interface SealStatus extends CoreSealStatus {
  version: string;
  build_date: string;
  storage_type: string;
  removed_from_cluster: boolean;
}

/** `GET sys/init` (raw body). */
export interface InitStatus {
  initialized: boolean;
}

/** `GET sys/health` (raw body); the cluster fields once unsealed. */
export interface HealthResponse {
  initialized: boolean;
  sealed: boolean;
  standby: boolean;
  performance_standby: boolean;
  replication_performance_mode: string;
  replication_dr_mode: string;
  server_time_utc: number;
  version: string;
  cluster_name?: string;
  cluster_id?: string;
}

/** `GET sys/leader` (raw body). */
export interface LeaderResponse {
  ha_enabled: boolean;
  is_self: boolean;
  active_time: string;
  leader_address: string;
  leader_cluster_address: string;
  performance_standby: boolean;
  performance_standby_last_remote_wal: number;
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
export type MountInfo = {
  type: string;
  description: string;
  accessor: string;
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  external_entropy_access: boolean;
  options: Record<string, string> | null;
  config: MountConfigInfo;
  plugin_version: string;
  running_plugin_version: string;
  running_sha256: string;
};

/** `config` of a mount: TTLs in seconds. */
export type MountConfigInfo = {
  default_lease_ttl: number;
  max_lease_ttl: number;
  force_no_cache: boolean;
  /** `unauth` lists the mount to unauthenticated UI listings. */
  listing_visibility?: string;
  allowed_managed_keys?: string[];
  /** Auth mounts only: the token type logins issue. */
  token_type?: string;
};

/** `data` of `auth/token/lookup`, `lookup-self` and `lookup-accessor` (`id` is `''` by accessor). */
export type TokenLookupData = {
  accessor: string;
  /** Unix seconds. */
  creation_time: number;
  creation_ttl: number;
  display_name: string;
  entity_id: string;
  /** RFC 3339, `null` for a token that never expires. */
  expire_time: string | null;
  explicit_max_ttl: number;
  id: string;
  issue_time: string;
  meta: Record<string, string> | null;
  num_uses: number;
  orphan: boolean;
  path: string;
  policies: string[];
  renewable: boolean;
  ttl: number;
  type: 'service' | 'batch';
  identity_policies?: string[];
  role?: string;
  period?: number;
  bound_cidrs?: string[];
  /** Unix seconds. */
  last_renewal_time?: number;
  last_renewal?: string;
};

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
export type KvVersionMetadata = {
  created_time: string;
  custom_metadata: Record<string, string> | null;
  deletion_time: string;
  destroyed: boolean;
  version: number;
};

/** `GET <mount>/data/:path` data. */
export type KvV2Data = {
  data: Record<string, unknown> | null;
  metadata: KvVersionMetadata;
};

/** `GET <mount>/metadata/:path` data. */
export type KvMetadata = {
  cas_required: boolean;
  created_time: string;
  current_version: number;
  custom_metadata: Record<string, string> | null;
  delete_version_after: string;
  max_versions: number;
  oldest_version: number;
  updated_time: string;
  versions: Record<string, { created_time: string; deletion_time: string; destroyed: boolean }>;
};

/** `?help=1` answer (raw body). */
export interface HelpResponse {
  help: string;
  see_also: null;
  /** The OpenAPI document of the path and everything below it; `null` for the routes the HTTP layer answers. */
  openapi: unknown;
}

/** `sys/rekey/init` status. */
export interface RekeyStatus {
  nonce: string;
  started: boolean;
  t: number;
  n: number;
  progress: number;
  required: number;
  pgp_fingerprints: null;
  backup: boolean;
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
  pgp_fingerprints: null;
  backup: boolean;
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

/** The answer to the share that completes a rekey verification. */
export interface RekeyVerifyResult {
  nonce: string;
  complete: true;
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
  pgp_fingerprint: string;
  otp: string;
  otp_length: number;
}

/** One server of `sys/ha-status` (`data.nodes`): the active one first (`last_echo` null), then the standbys. */
export type HaNode = {
  hostname: string;
  api_address: string;
  cluster_address: string;
  active_node: boolean;
  /** When the standby last echoed (RFC 3339); `null` for the active server itself. */
  last_echo: string | null;
  version: string;
  upgrade_version: string;
  redundancy_zone: string;
};
