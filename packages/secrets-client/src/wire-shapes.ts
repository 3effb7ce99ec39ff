import type {
  GenerateRootStatus,
  HaNode,
  HealthResponse,
  HelpResponse,
  InitResponse,
  InitStatus,
  KvMetadata,
  KvV2Data,
  KvVersionMetadata,
  LeaderResponse,
  MountConfigInfo,
  MountInfo,
  RekeyResult,
  RekeyStatus,
  RekeyVerifyResult,
  RekeyVerifyStatus,
  SealStatus,
  Secret,
  SecretAuth,
  TokenLookupData,
  WrapInfo,
} from './types.js';

/** Each key of `T`, and whether an answer must carry it. */
export type KeyPresence<T> = {
  readonly [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? 'optional' : 'required';
};

/** The keys of one wire type, at run time: what a test compares a real answer with. */
export interface WireShape {
  readonly name: string;
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/**
 * The shape of wire type `T`. The compiler refuses a `presence` that misses a key of `T`, names a
 * key `T` lacks, or calls an optional key required (or the reverse), so the list cannot drift from
 * the type.
 */
export function wireShape<T>(name: string, presence: KeyPresence<T>): WireShape {
  const entries = Object.entries(presence) as [string, 'optional' | 'required'][];
  return {
    name,
    required: entries.filter(([, p]) => p === 'required').map(([k]) => k),
    optional: entries.filter(([, p]) => p === 'optional').map(([k]) => k),
  };
}

/** How `answer` differs from `shape`: keys it lacks, and keys the type does not declare. */
export function shapeDrift(shape: WireShape, answer: object): { missing: string[]; undeclared: string[] } {
  const keys = Object.keys(answer);
  const declared = new Set([...shape.required, ...shape.optional]);
  return {
    missing: shape.required.filter((k) => !keys.includes(k)),
    undeclared: keys.filter((k) => !declared.has(k)),
  };
}

const R = 'required';
const O = 'optional';

export const WIRE_SHAPES = {
  secret: wireShape<Secret>('Secret', {
    request_id: R,
    lease_id: R,
    lease_duration: R,
    renewable: R,
    data: R,
    warnings: R,
    auth: R,
    wrap_info: R,
  }),
  secretAuth: wireShape<SecretAuth>('SecretAuth', {
    client_token: R,
    accessor: R,
    policies: R,
    token_policies: R,
    identity_policies: O,
    metadata: R,
    lease_duration: R,
    renewable: R,
    entity_id: R,
    token_type: R,
    orphan: R,
    num_uses: R,
    mfa_requirement: R,
  }),
  wrapInfo: wireShape<WrapInfo>('WrapInfo', {
    token: R,
    accessor: R,
    ttl: R,
    creation_time: R,
    creation_path: R,
    wrapped_accessor: O,
  }),
  sealStatus: wireShape<SealStatus>('SealStatus', {
    type: R,
    initialized: R,
    sealed: R,
    t: R,
    n: R,
    progress: R,
    nonce: R,
    migration: R,
    recovery_seal: R,
    recovery_seal_type: O,
    cluster_name: O,
    cluster_id: O,
    version: R,
    build_date: R,
    storage_type: R,
    removed_from_cluster: R,
  }),
  initStatus: wireShape<InitStatus>('InitStatus', { initialized: R }),
  initResponse: wireShape<InitResponse>('InitResponse', {
    keys: R,
    keys_base64: R,
    recovery_keys: O,
    recovery_keys_base64: O,
    root_token: R,
  }),
  health: wireShape<HealthResponse>('HealthResponse', {
    initialized: R,
    sealed: R,
    standby: R,
    performance_standby: R,
    replication_performance_mode: R,
    replication_dr_mode: R,
    server_time_utc: R,
    version: R,
    cluster_name: O,
    cluster_id: O,
  }),
  leader: wireShape<LeaderResponse>('LeaderResponse', {
    ha_enabled: R,
    is_self: R,
    active_time: R,
    leader_address: R,
    leader_cluster_address: R,
    performance_standby: R,
    performance_standby_last_remote_wal: R,
  }),
  rekeyStatus: wireShape<RekeyStatus>('RekeyStatus', {
    nonce: R,
    started: R,
    t: R,
    n: R,
    progress: R,
    required: R,
    pgp_fingerprints: R,
    backup: R,
    verification_required: R,
    verification_nonce: O,
    complete: O,
  }),
  rekeyResult: wireShape<RekeyResult>('RekeyResult', {
    nonce: R,
    complete: R,
    keys: R,
    keys_base64: R,
    pgp_fingerprints: R,
    backup: R,
    verification_required: R,
    verification_nonce: O,
  }),
  rekeyVerifyStatus: wireShape<RekeyVerifyStatus>('RekeyVerifyStatus', {
    nonce: R,
    started: R,
    t: R,
    n: R,
    progress: R,
    complete: O,
  }),
  rekeyVerifyResult: wireShape<RekeyVerifyResult>('RekeyVerifyResult', { nonce: R, complete: R }),
  generateRootStatus: wireShape<GenerateRootStatus>('GenerateRootStatus', {
    started: R,
    nonce: R,
    progress: R,
    required: R,
    complete: R,
    encoded_token: R,
    encoded_root_token: R,
    pgp_fingerprint: R,
    otp: R,
    otp_length: R,
  }),
  mountInfo: wireShape<MountInfo>('MountInfo', {
    type: R,
    description: R,
    accessor: R,
    uuid: R,
    local: R,
    seal_wrap: R,
    external_entropy_access: R,
    options: R,
    config: R,
    plugin_version: R,
    running_plugin_version: R,
    running_sha256: R,
  }),
  mountConfig: wireShape<MountConfigInfo>('MountConfigInfo', {
    default_lease_ttl: R,
    max_lease_ttl: R,
    force_no_cache: R,
    listing_visibility: O,
    allowed_managed_keys: O,
    token_type: O,
  }),
  tokenLookup: wireShape<TokenLookupData>('TokenLookupData', {
    accessor: R,
    creation_time: R,
    creation_ttl: R,
    display_name: R,
    entity_id: R,
    expire_time: R,
    explicit_max_ttl: R,
    id: R,
    issue_time: R,
    meta: R,
    num_uses: R,
    orphan: R,
    path: R,
    policies: R,
    renewable: R,
    ttl: R,
    type: R,
    identity_policies: O,
    role: O,
    period: O,
    bound_cidrs: O,
    last_renewal_time: O,
    last_renewal: O,
  }),
  kvVersionMetadata: wireShape<KvVersionMetadata>('KvVersionMetadata', {
    created_time: R,
    custom_metadata: R,
    deletion_time: R,
    destroyed: R,
    version: R,
  }),
  kvV2Data: wireShape<KvV2Data>('KvV2Data', { data: R, metadata: R }),
  kvMetadata: wireShape<KvMetadata>('KvMetadata', {
    cas_required: R,
    created_time: R,
    current_version: R,
    custom_metadata: R,
    delete_version_after: R,
    max_versions: R,
    oldest_version: R,
    updated_time: R,
    versions: R,
  }),
  help: wireShape<HelpResponse>('HelpResponse', { help: R, see_also: R, openapi: R }),
  haNode: wireShape<HaNode>('HaNode', {
    hostname: R,
    api_address: R,
    cluster_address: R,
    active_node: R,
    last_echo: R,
    version: R,
    upgrade_version: R,
    redundancy_zone: R,
  }),
} as const;
