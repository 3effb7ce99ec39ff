import type { AuditAdmin } from '../core/audit/index.js';
import type { CorsSettings } from '../core/cors-config.js';
import type { ExpirationManager } from '../core/expiration/index.js';
import type { Namespace } from '../core/namespaces/namespace-store.js';
import type { PolicyStore } from '../core/policy/policy-store.js';
import type { MountEntry } from '../core/router/mount-table.js';
import type { NamespaceMounts } from '../core/router/mounts.js';
import type { LockoutControl } from '../logical/response.js';
import type { TokenPolicyResolver } from './path-capabilities.js';
import type { OpenApiRoute } from './path-openapi.js';

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

/**
 * The part of the core one namespace's system backend may use; it never imports `Core`.
 * Every operation is confined to `namespace` (its mounts, policies, children).
 */
export interface SystemCore {
  namespace: Namespace;
  mounts: NamespaceMounts;
  /** Version string reported in mount listings (`running_plugin_version`). */
  version: string;
  seal(): Promise<void>;
  rotateKeyring(): Promise<void>;
  keyStatus(): { term: number; installTimeMs: number; encryptions: number };
  /** Built-in mounts shown in listings though they are not in the table (`sys/`). */
  builtinMounts(): MountEntry[];
  /** Built-in auth methods (`token/`). */
  builtinAuthMounts(): MountEntry[];
  policies(): PolicyStore;
  tokenPolicyResolver(): TokenPolicyResolver;
  expiration: ExpirationManager;
  namespaces: ChildNamespaces;
  /** The server's audit devices (`sys/audit*`, root namespace only). */
  audit: AuditAdmin;
  /** The server's CORS setting (`sys/config/cors`, root namespace only). */
  cors: CorsSettings;
  /** The mounts of this namespace, with mount points relative to it (for `sys/internal/specs/openapi`). */
  openapiRoutes(): OpenApiRoute[];
  /** Auth mounts keeping a lockout table in this namespace and every namespace below it. */
  lockoutMounts(): LockoutMount[];
}
