import type { LogFormat, LogLevel, LogListener } from '@ward/base';
import type { Backend } from '../framework/index.js';
import type { LockoutControl } from '../logical/response.js';
import type { Storage } from '../logical/storage.js';
import type { AuditAdmin } from './audit/index.js';
import type { CorsSettings } from './cors-config.js';
import type { ExpirationManager } from './expiration/index.js';
import type { Namespace } from './namespaces/namespace-store.js';
import type { PasswordPolicyStore } from './password-policies/index.js';
import type { PolicyStore } from './policy/policy-store.js';
import type { MountEntry, MountTuning } from './router/mount-table.js';
import type { RouterRecord, RouterTag } from './router/router-records.js';
import type { ResponseWrapping } from './wrapping/index.js';

export type { WrappingTokenRef } from './wrapping/index.js';

import type { HaNodeReport } from './ha/index.js';
import type { NamespaceMounts } from './router/mounts.js';
import type { SystemTtls } from './router/system-ttls.js';
import type { RekeyOperation, RootGeneration } from './seal/index.js';
import type { SnapshotControls } from './snapshots.js';

export type { SnapshotControls } from './snapshots.js';

/** Resolves a token or accessor to the policies its requests are judged by (`sys/capabilities*`). */
export interface TokenPolicyResolver {
  /** The policies of a live token, `undefined` when the token is unknown, expired or revoked. */
  policiesOfToken(token: string): Promise<string[] | undefined>;
  /** The policies of the live token with this accessor, `undefined` when there is none. */
  policiesOfAccessor(accessor: string): Promise<string[] | undefined>;
}

/** What `sys/wrapping/*` may do with wrapping tokens (see `wrapping/response-wrapping.ts`). */
export type WrappingControl = Pick<ResponseWrapping, 'lookup' | 'unwrap' | 'rewrap'>;

/** A mount as `sys/internal/specs/openapi` documents it. */
export interface OpenApiRoute {
  /** Full mount point with trailing slash (`secret/`, `auth/userpass/`, `sys/`). */
  mountPoint: string;
  /** The mount's type (`kv`, `system`, `token`): first word of its `operationId`s. */
  type: string;
  backend: Backend;
}

/** Child namespaces of the namespace a `sys/` serves. */
export interface ChildNamespaces {
  children(): Namespace[];
  /** The child named `name`, if any. */
  get(name: string): Namespace | undefined;
  create(name: string, metadata: Record<string, string>): Promise<Namespace>;
  patch(child: Namespace, metadata: Record<string, string | null>): Promise<Namespace>;
  remove(child: Namespace): Promise<void>;
}

/** An auth mount that keeps a lockout table (`sys/locked-users`). */
export interface LockoutMount {
  namespace: Namespace;
  accessor: string;
  control: LockoutControl;
}

/** A rekey of unseal or recovery shares. */
export type RekeyAdmin = Pick<
  RekeyOperation,
  'status' | 'start' | 'cancel' | 'update' | 'verifyStatus' | 'restartVerification' | 'verify'
>;

/** Key-share operations of the seal (`sys/rekey/*`, `sys/rekey-recovery-key/*`, `sys/generate-root/*`; root namespace only). */
export interface SealKeyAdmin {
  rekey: RekeyAdmin;
  /** Present with an auto seal only. */
  rekeyRecovery: RekeyAdmin | undefined;
  rootGeneration: Pick<RootGeneration, 'status' | 'start' | 'cancel' | 'update'>;
}

/** A rendering of the server's metrics, as `GET sys/metrics` answers it. */
export interface MetricsAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The server's metrics, rendered on request; the server composes them (`server/metrics.ts`). */
export interface MetricsReport {
  /**
   * `format` as the query gave it: `prometheus` (400 `prometheus is not enabled` unless a
   * retention time is configured), `''` or `json` for the JSON summary, anything else 400.
   */
  render(format: string): Promise<MetricsAnswer>;
}

/** Where `sys/monitor` subscribes to the server's log (the logger's tap, from the composition root). */
export interface LogSource {
  subscribe(level: LogLevel, format: LogFormat, listener: LogListener): () => void;
}

/** The storage beneath the barrier, decrypted (`sys/raw/*`). */
export type RawStorage = Pick<Storage, 'get' | 'put' | 'delete' | 'list'>;

/** `sys/host-info` and `sys/config/state/sanitized`, from the composition root. */
export interface ServerState {
  hostInfo(): Promise<{ data: Record<string, unknown>; warnings: string[] }>;
  sanitizedConfig(): Record<string, unknown>;
}

/** What `sys/` acts on for the whole server: the same object for every namespace (most of it is root-only). */
export interface ServerControls {
  /** Version string reported in mount listings (`running_plugin_version`). */
  version: string;
  seal(): Promise<void>;
  rotateKeyring(): Promise<void>;
  keyStatus(): { term: number; installTimeMs: number; encryptions: number };
  sealKeys: SealKeyAdmin;
  tokenPolicyResolver(): TokenPolicyResolver;
  expiration: ExpirationManager;
  /** The server's audit devices (`sys/audit*`, root namespace only). */
  audit: AuditAdmin;
  /** The server's CORS setting (`sys/config/cors`, root namespace only). */
  cors: CorsSettings;
  /** `sys/metrics` (root namespace only). */
  metrics: MetricsReport;
  /** `sys/monitor` (root namespace only); without it the endpoint answers that the log is not streamed. */
  logSource: LogSource | undefined;
  /** `sys/host-info`, `sys/config/state/sanitized` (root namespace only). */
  serverState: ServerState | undefined;
  /** `sys/wrapping/lookup`, `unwrap` and `rewrap`. */
  wrapping: WrappingControl;
  /** `sys/storage/raft/snapshot*` (root namespace only). */
  snapshots: SnapshotControls;
  /** `sys/ha-status` and `sys/step-down` (root namespace only). */
  ha: { nodes(): HaNodeReport[]; stepDown(): Promise<void> };
  /** `default_lease_ttl` and `max_lease_ttl`: what mounts that set none inherit. */
  systemTtls: SystemTtls;
  /** `raw_storage_endpoint = true` only: the storage `sys/raw/*` reads and writes. */
  raw: RawStorage | undefined;
  /** `introspection_endpoint = true` only: the router's mounts by table (`sys/internal/inspect/router/:tag`). */
  inspectRouter: ((tag: RouterTag) => RouterRecord[]) | undefined;
}

/**
 * The part of the core one namespace's system backend may use (it never sees `Core`).
 * Every operation but the server's controls is confined to `namespace` (its mounts,
 * policies, children).
 */
export interface SystemCore extends ServerControls {
  namespace: Namespace;
  mounts: NamespaceMounts;
  /** Built-in mounts shown in listings though they are not in the table (`sys/`). */
  builtinMounts(): MountEntry[];
  /** Built-in auth methods (`token/`), as tuned. */
  builtinAuthMounts(): MountEntry[];
  /** `sys/auth/token/tune`: changes the description and lease settings of the namespace's token method. */
  tuneTokenMount(change: MountTuning): Promise<void>;
  policies(): PolicyStore;
  /** The namespace's password policies (`sys/policies/password/*`). */
  passwordPolicies: PasswordPolicyStore;
  namespaces: ChildNamespaces;
  /** The mounts of this namespace, with mount points relative to it (for `sys/internal/specs/openapi`). */
  openapiRoutes(): OpenApiRoute[];
  /** Auth mounts keeping a lockout table in this namespace and every namespace below it. */
  lockoutMounts(): LockoutMount[];
}
